/**
 * The bench's yardstick: a bare node:http server answering each path with the very bytes and
 * headers the app sent for it, from memory. `node raw-server.mjs answers.json` prints its port.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const answers = new Map(
  Object.entries(JSON.parse(readFileSync(process.argv[2], 'utf8'))).map(([path, a]) => [path, { status: a.status, headers: a.headers, body: Buffer.from(a.body, 'base64') }]),
);

const server = createServer((req, res) => {
  const answer = answers.get(req.url);
  if (!answer) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(answer.status, answer.headers);
  res.end(answer.body);
});
server.keepAliveTimeout = 72_000;
server.listen(0, '127.0.0.1', () => console.log(String(server.address().port)));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
