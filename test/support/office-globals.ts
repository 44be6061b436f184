/**
 * Office.js's globals as the add-in's Excel glue reads them, stood in for in
 * Node (office-glue, live-glue and live-runtime-change tests).
 */

/** The CustomFunctions global: an Error with a code, and the ErrorCode names the glue uses. */
export function customFunctionsStandIn() {
  return {
    Error: class extends Error {
      constructor(readonly code: string, message?: string) {
        super(message);
      }
    },
    ErrorCode: { invalidValue: '#VALUE!', notAvailable: '#N/A' },
  };
}

/** Takes every stood-in Office.js global away again (after a test file, or each test). */
export function removeOfficeGlobals(): void {
  const g = globalThis as Record<string, unknown>;
  for (const name of ['Office', 'OfficeRuntime', 'Excel', 'CustomFunctions']) delete g[name];
}
