/**
 * src/api/validate.ts: answers are checked in place when the schema only
 * checks, and go to valibot otherwise. (Agreement with valibot on every
 * endpoint's answers, and on damaged ones, is tested in emulator-market.test.ts.)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as v from 'valibot';
import { checksInPlace, validate } from '../src/api/validate';

const Item = v.object({
  id: v.pipe(v.number(), v.integer()),
  price: v.pipe(v.string(), v.regex(/^\d+(\.\d+)?$/)),
  tags: v.array(v.object({ slug: v.string() })),
  note: v.optional(v.string()),
  rank: v.nullable(v.number()),
});

test('an answer that fits is used as it is: no copy, unnamed keys kept', () => {
  const input = { id: 1, price: '2.5', tags: [{ slug: 'a', extra: 1 }], rank: null, extra: true };
  const r = validate(v.array(Item), [input]);
  assert.ok(r.success);
  assert.equal(r.output[0], input);
  assert.equal((r.output[0] as unknown as { extra: boolean }).extra, true);
});

test('an answer that does not fit gets valibot\'s own issues', () => {
  for (const bad of [{ id: 1.5 }, { price: '2,5' }, { tags: [{}] }, { rank: undefined }, { note: 3 }]) {
    const input = { id: 1, price: '2.5', tags: [], rank: 4, ...bad };
    const r = validate(Item, input);
    const expected = v.safeParse(Item, input);
    assert.equal(r.success, false, JSON.stringify(bad));
    assert.deepEqual(r.issues, expected.issues);
  }
});

test('schemas that change values (transforms, defaults, fallbacks) are left to valibot', () => {
  const Transformed = v.object({ n: v.pipe(v.string(), v.transform(Number)) });
  const Defaulted = v.object({ n: v.optional(v.number(), 7) });
  const Fallback = v.fallback(v.number(), 0);
  for (const s of [Transformed, Defaulted, Fallback]) assert.equal(checksInPlace(s), false);
  assert.deepEqual(validate(Transformed, { n: '5' }).output, { n: 5 });
  assert.deepEqual(validate(Defaulted, {}).output, { n: 7 });
  assert.equal(validate(Fallback, 'x').output, 0);
  // ...and a schema of only checks is compiled.
  assert.equal(checksInPlace(Item), true);
});

const CHECKS = [v.integer(), v.check((x: number) => x >= 0), v.check((x: number) => x <= 9), v.finite()];
/** Pipes of one to five steps: each length the compiler writes out, and a longer one. */
const PIPES = [0, 1, 2, 3, 4].map((n) => v.pipe(v.number(), ...(CHECKS.slice(0, n) as [])) as v.GenericSchema);

test('the in-place check is what valibot accepts: NaN, arrays as objects, missing optional keys', () => {
  const cases: [v.GenericSchema, unknown][] = [
    [v.number(), Number.NaN],
    [v.object({ length: v.number() }), [1, 2]],
    [v.object({ a: v.optional(v.string()) }), {}],
    [v.object({ a: v.nullable(v.string()) }), {}],
    [v.picklist(['a', 'b']), 'c'],
    [v.array(v.string()), 'abc'],
    // eslint-disable-next-line no-sparse-arrays
    [v.array(v.string()), ['a', , 'b']],
    // A key present as undefined is read as its value; a missing one is missing (one read per key: validate.ts).
    [v.object({ a: v.unknown() }), {}],
    [v.object({ a: v.unknown() }), { a: undefined }],
    [v.object({ a: v.optional(v.string()) }), { a: undefined }],
    [v.object({ a: v.string() }), { a: undefined }],
    // Pipes of every length the compiler writes out, and a longer one.
    ...PIPES.flatMap((pipe) => [-1, 3, 4.5, 12, Infinity, '3'].map((x): [v.GenericSchema, unknown] => [pipe, x])),
  ];
  for (const pipe of PIPES) assert.equal(checksInPlace(pipe), true);
  for (const [schema, input] of cases) {
    assert.equal(validate(schema, input).success, v.safeParse(schema, input).success, JSON.stringify(input));
  }
});
