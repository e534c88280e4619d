import { connect } from 'node:net';

/**
 * Writes `text` on a raw connection to 127.0.0.1:`port` and resolves with the first line of the
 * answer ('' when none came): for request lines no HTTP client would send.
 */
export function rawExchange(port: number, text: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let answer = '';
    const done = () => resolve(answer.split('\r\n')[0] ?? '');
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
      // The status line is all a caller reads: a kept-alive connection need not be waited out.
      if (answer.includes('\r\n')) socket.destroy();
    });
    socket.on('error', done);
    socket.on('close', done);
    socket.setTimeout(5000, () => socket.destroy());
  });
}
