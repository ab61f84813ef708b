// Work done after the answer is sent: a request about an e-mail answers at once, and only then looks
// the e-mail up, issues a token and sends mail, so neither the answer nor its timing tells a known
// address from an unknown one. One task at a time, in order; a failure is logged and the queue goes
// on. Closing the auth service waits for the queue to run empty.
import type { FastifyBaseLogger } from 'fastify';

export class DeferredWork {
  private tail: Promise<void> = Promise.resolve();

  constructor(private readonly log: FastifyBaseLogger) {}

  /** Queues `task` to run after the current request's answer has gone out. */
  enqueue(name: string, task: () => Promise<void>): void {
    this.tail = this.tail
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(task)
      .catch((error: unknown) => this.log.error({ err: error, task: name }, 'deferred work failed'));
  }

  /** Resolves once every task queued so far, and any they queued, has run. */
  async drained(): Promise<void> {
    let seen: Promise<void>;
    do {
      seen = this.tail;
      await seen;
    } while (seen !== this.tail);
  }
}
