import { fork, type ChildProcess } from 'node:child_process';

/** What every bench worker may answer: its own messages, or why it failed. */
type Answer = { kind: string } | { kind: 'failed'; error: string };

/**
 * A bench worker (a forked TypeScript file speaking `To` in and `From` out over IPC): one request
 * at a time, answered by the next message it sends.
 */
export class WorkerProcess<To extends { kind: string }, From extends Answer> {
  readonly child: ChildProcess;
  private waiting: ((message: From) => void) | null = null;

  constructor(file: string) {
    this.child = fork(file, [], { execArgv: ['--import', 'tsx'] });
    this.child.on('message', (message: From) => this.waiting?.(message));
  }

  request(message: To, expected: From['kind']): Promise<From> {
    return new Promise((resolve, reject) => {
      this.waiting = (answer) => {
        this.waiting = null;
        if (answer.kind === expected) resolve(answer);
        else reject(new Error('error' in answer ? answer.error : `got ${answer.kind}`));
      };
      this.child.send(message);
    });
  }

  /** A message that expects no answer. */
  tell(message: To) {
    this.child.send(message);
  }

  /** Asks the worker to close (`{ kind: 'close' }`), killing it after 5 s. */
  close(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.child.kill(), 5000);
      this.child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      this.child.send({ kind: 'close' });
    });
  }
}
