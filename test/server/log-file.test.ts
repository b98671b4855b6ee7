import * as fs from 'node:fs';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import type * as LogFileModule from '../../server/core/sessions/log-file.js';

/**
 * LogFile over a file system that tells what it does: fdatasync completes only when the test
 * releases it, and the next write can be made to fail after some bytes.
 */
async function instrumented(t: Test) {
  const events: string[] = [];
  const held: ((error?: Error) => void)[] = [];
  let failing: number | null = null;
  const module = await t.mockImport<typeof LogFileModule>('../../server/core/sessions/log-file.js', {
    'node:fs': {
      ...fs,
      writeSync: (fd: number, buffer: Buffer, offset = 0) => {
        if (failing !== null) {
          fs.writeSync(fd, buffer, offset, failing);
          failing = null;
          events.push('write failed');
          throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
        }
        events.push(`write ${buffer.length - offset}`);
        return fs.writeSync(fd, buffer, offset);
      },
      fdatasync: (fd: number, done: (error: Error | null) => void) => {
        events.push('fdatasync');
        held.push((failure) =>
          failure
            ? setImmediate(() => {
                events.push('sync failed');
                done(failure);
              })
            : fs.fdatasync(fd, (error) => {
                events.push('synced');
                done(error);
              }),
        );
      },
    },
  });
  return {
    LogFile: module.LogFile,
    events,
    /** Lets the oldest fdatasync run. */
    release: () => held.shift()!(),
    /** Makes the oldest fdatasync fail. */
    failSync: () => held.shift()!(Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' })),
    failNextWrite: (afterBytes: number) => (failing = afterBytes),
  };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** Waits, turn after turn, until `done` holds: a real fdatasync takes as long as the disk does. */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 5));
}

t.test('process mode: the records of one turn are one write, acknowledged once written', async (t) => {
  const { LogFile, events } = await instrumented(t);
  const path = join(t.testdir(), 'log.jsonl');
  const log = new LogFile(path, 'process');
  log.append('{"a":1}');
  log.append('{"b":2}');
  t.equal(fs.readFileSync(path, 'utf8'), '', 'nothing is written before the turn ends');
  await log.settled();
  t.same(events, ['write 16'], 'one write for both records, no fdatasync');
  t.equal(fs.readFileSync(path, 'utf8'), '{"a":1}\n{"b":2}\n');
  t.equal(log.settled(), undefined, 'nothing pending');
  await log.close();
});

t.test('fsync mode: acknowledged only after fdatasync; records arriving meanwhile form the next group', async (t) => {
  const { LogFile, events, release } = await instrumented(t);
  const log = new LogFile(join(t.testdir(), 'log.jsonl'), 'fsync');
  log.append('{"a":1}');
  void log.settled()!.then(() => events.push('acknowledged 1'));
  await turn();
  t.same(events, ['write 8', 'fdatasync'], 'written, and fdatasync started');
  log.append('{"b":2}');
  log.append('{"c":3}');
  const second = log.settled()!;
  void second.then(() => events.push('acknowledged 2'));
  await turn();
  t.same(events, ['write 8', 'fdatasync', 'write 16'], 'the next group is written while the first is being synced, not acknowledged');
  release();
  await until(() => events.includes('acknowledged 1'));
  t.same(
    events,
    ['write 8', 'fdatasync', 'write 16', 'synced', 'fdatasync', 'acknowledged 1'],
    'the first group is acknowledged once synced; one fdatasync starts for the next',
  );
  release();
  await second;
  t.same(events.slice(-2), ['synced', 'acknowledged 2']);
  const closed = log.close();
  await closed;
});

t.test('a failed write is reported to its waiters, leaves only whole records, and the log goes on', async (t) => {
  const { LogFile, failNextWrite } = await instrumented(t);
  const path = join(t.testdir(), 'log.jsonl');
  const log = new LogFile(path, 'process');
  log.append('{"kept":0}');
  await log.settled();
  failNextWrite(5);
  log.append('{"lost":1}');
  await t.rejects(log.settled()!, { message: /ENOSPC/ });
  t.equal(fs.readFileSync(path, 'utf8'), '{"kept":0}\n', 'the partial write was cut off');
  log.append('{"next":2}');
  await log.settled();
  t.equal(fs.readFileSync(path, 'utf8'), '{"kept":0}\n{"next":2}\n');
  await log.close();
});

t.test('a failed write tells what it lost, oldest first, before its waiters hear of it', async (t) => {
  const { LogFile, failNextWrite } = await instrumented(t);
  const path = join(t.testdir(), 'log.jsonl');
  const told: string[] = [];
  const log = new LogFile<string>(path, 'process', (tags, error) => told.push(`${tags.join(',')}: ${error.message.slice(0, 6)}`));
  log.append('{"kept":0}', 'kept');
  await log.settled();
  failNextWrite(3);
  log.append('{"a":1}', 'a');
  log.append('{"b":2}', 'b');
  const waiting = log.settled()!.catch(() => told.push('rejected'));
  await waiting;
  t.same(told, ['a,b: ENOSPC', 'rejected'], 'the lost records, then the rejection');
  t.ok(log.failing, 'failing until a write succeeds');
  t.equal(fs.readFileSync(path, 'utf8'), '{"kept":0}\n');
  await log.close();
});

t.test('while failing, a write is retried after RETRY_MS, not in the next turn', async (t) => {
  const { LogFile, events, failNextWrite } = await instrumented(t);
  const log = new LogFile(join(t.testdir(), 'log.jsonl'), 'process');
  failNextWrite(0);
  log.append('{"a":1}');
  await log.settled()!.catch(() => undefined);
  log.append('{"b":2}');
  await turn();
  await turn();
  t.same(events, ['write failed'], 'not written in the next turns');
  await log.settled();
  t.same(events, ['write failed', 'write 8'], 'written after the delay');
  t.notOk(log.failing, 'and the log is well again');
  await log.close();
});

t.test('fsync mode: a failed fdatasync loses its groups and every later one; the earlier stay', async (t) => {
  const { LogFile, events, release, failSync } = await instrumented(t);
  const path = join(t.testdir(), 'log.jsonl');
  const told: string[][] = [];
  const log = new LogFile<string>(path, 'fsync', (tags) => told.push(tags));
  log.append('{"a":1}', 'a');
  const first = log.settled()!;
  await turn();
  release();
  await first;
  log.append('{"b":2}', 'b');
  const second = log.settled()!;
  await turn();
  log.append('{"c":3}', 'c');
  const third = log.settled()!;
  await turn();
  log.append('{"d":4}', 'd');
  t.same(events, ['write 8', 'fdatasync', 'synced', 'write 8', 'fdatasync', 'write 8'], 'b is being synced, c written after it, d not yet');
  failSync();
  await t.rejects(second, { message: /EIO/ });
  await t.rejects(third, { message: /EIO/ });
  t.same(told, [['b', 'c', 'd']], 'b, and c and d which may build on it');
  t.equal(fs.readFileSync(path, 'utf8'), '{"a":1}\n', 'the file is cut back to where b began');
  await log.close();
});

t.test('a log held behind another writes nothing until that one settles, and gives up what it holds', async (t) => {
  const { LogFile, events } = await instrumented(t);
  let open!: () => void;
  const log = new LogFile<string>(join(t.testdir(), 'log.jsonl'), 'process', undefined, new Promise<void>((resolve) => (open = resolve)));
  log.append('{"a":1}', 'a');
  await turn();
  t.same(events, [], 'held');
  t.same(log.abandon().tags, ['a'], 'what it holds can be taken out');
  t.equal(log.settled(), undefined, 'and nothing is left pending');
  log.append('{"b":2}', 'b');
  open();
  await log.settled();
  t.same(events, ['write 8'], 'written once the log before has settled');
  await log.close();
});
