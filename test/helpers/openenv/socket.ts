import { WebSocket } from 'undici';
import { PythonError } from './python.js';

// The WebSocket OpenEnv's EnvClient holds (the `websockets` package's client connection): text frames
// sent and received in order, recv() failing once the server closed the connection.

export class ClientConnection {
  private readonly frames: string[] = [];
  private readonly waiting: { resolve: (text: string) => void; reject: (error: Error) => void }[] = [];
  private closeCode: number | undefined;
  private readonly closed: Promise<void>;

  private constructor(private readonly socket: WebSocket) {
    socket.addEventListener('message', (event) => {
      const text = String(event.data);
      const reader = this.waiting.shift();
      if (reader) reader.resolve(text);
      else this.frames.push(text);
    });
    this.closed = new Promise((resolve) =>
      socket.addEventListener('close', (event) => {
        this.closeCode = event.code;
        for (const reader of this.waiting.splice(0)) reader.reject(new PythonError('ConnectionClosed', `received ${event.code} (${event.reason})`));
        resolve();
      }),
    );
  }

  /** `websockets.asyncio.client.connect(url)`: ConnectionError-worthy failures reject. */
  static async open(url: string): Promise<ClientConnection> {
    const socket = new WebSocket(url);
    await new Promise((resolve, reject) => {
      socket.addEventListener('open', resolve, { once: true });
      socket.addEventListener('error', () => reject(new PythonError('ConnectionError', `Failed to connect to ${url}`)), { once: true });
    });
    return new ClientConnection(socket);
  }

  send(text: string): void {
    if (this.closeCode !== undefined) throw new PythonError('ConnectionClosed', `sent after close (${this.closeCode})`);
    this.socket.send(text);
  }

  /** The next text frame, within `timeoutMs` (asyncio.wait_for's TimeoutError otherwise). */
  recv(timeoutMs: number): Promise<string> {
    const queued = this.frames.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    if (this.closeCode !== undefined) return Promise.reject(new PythonError('ConnectionClosed', `received ${this.closeCode}`));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new PythonError('TimeoutError', `no message in ${timeoutMs} ms`)), timeoutMs);
      this.waiting.push({
        resolve: (text) => {
          clearTimeout(timer);
          resolve(text);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
    });
  }

  /** Closes and waits for the closing handshake. */
  async close(): Promise<void> {
    if (this.closeCode === undefined) this.socket.close();
    await this.closed;
  }
}
