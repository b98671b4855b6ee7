import type { EnvClient, StepResult } from './env-client.js';
import type { PyDict } from './python.js';

/**
 * OpenEnv's SyncEnvClient (src/openenv/core/sync_client.py, EnvClient.sync()): each method runs the async
 * client's coroutine on one dedicated event loop and blocks until it is done (`_run`), so calls go out one
 * at a time in the order they were made, with the very messages the async client sends. JavaScript cannot
 * block; the emulation queues each call behind the previous one, which is what blocking guarantees.
 */
export class SyncEnvClient<A, O, S, C extends EnvClient<A, O, S> = EnvClient<A, O, S>> {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly asyncClient: C) {}

  /** sync_client.py SyncEnvClient._run: the coroutine, after every call made before it has finished. */
  private run<T>(call: () => Promise<T>): Promise<T> {
    const result = this.queue.then(call);
    this.queue = result.catch(() => {});
    return result;
  }

  /** sync_client.py SyncEnvClient.connect (and `with client:` entry). */
  connect(): Promise<this> {
    return this.run(async () => {
      await this.asyncClient.connect();
      return this;
    });
  }

  reset(kwargs: PyDict = {}): Promise<StepResult<O>> {
    return this.run(() => this.asyncClient.reset(kwargs));
  }

  step(action: A): Promise<StepResult<O>> {
    return this.run(() => this.asyncClient.step(action));
  }

  state(): Promise<S> {
    return this.run(() => this.asyncClient.state());
  }

  /** sync_client.py SyncEnvClient.__getattr__: any other coroutine method of the async client (list_tools, call_tool, …), run the same way. */
  delegate<T>(method: (client: C) => Promise<T>): Promise<T> {
    return this.run(() => method(this.asyncClient));
  }

  /** sync_client.py SyncEnvClient.close (and `with` exit): the async client's close, then the loop stops. */
  close(): Promise<void> {
    return this.run(() => this.asyncClient.close());
  }
}
