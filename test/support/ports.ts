import net from 'node:net';

/** A port on 127.0.0.1 nothing listens on just now: to give a child process that is told its port, or as a closed port. */
export async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve, reject) => {
    s.once('error', reject);
    s.listen(0, '127.0.0.1', resolve);
  });
  const { port } = s.address() as net.AddressInfo;
  await new Promise((resolve) => s.close(resolve));
  return port;
}
