// Named prepared statements for the embedded database. PGlite's query() parses, plans and describes
// every statement anew, on the main thread: planning the token refresh's read of its token, Grant and
// membership took 1 ms of its 0.25 ms run, and those rounds were most of a refresh's and a password
// sign-in's CPU beside their signature and hash (bench/token-refresh.bench.ts,
// bench/password-login.bench.ts). Drizzle is given this client instead: each distinct statement
// text is parsed once under a name of its own and later calls only bind and execute it, in one
// exchange with the database, so PostgreSQL's plan cache applies. (On PostgreSQL, Drizzle's postgres.js
// driver sends unnamed statements unless a query is made with .prepare(); the planning runs in the
// database's own process there, not on the Node main thread.) PostgreSQL itself replans
// a cached statement when a table it reads changes (a migration); the cache holds the most recently
// used statements, up to a bound, and closes the ones it drops.
import { parse, protocol, type messages, type PGlite, type QueryOptions, type Results, type Transaction } from '@electric-sql/pglite';

/** The statements kept prepared: the server sends a few hundred distinct texts at most. */
export const STATEMENT_CACHE_SIZE = 300;

interface Prepared {
  name: string;
  /** Each parameter's type, which decides how its value is written (json, arrays, dates ...). */
  paramTypes: number[];
  /**
   * The columns of its answer, as described when it was prepared (none for a statement without
   * rows). A prepared statement's columns cannot change (PostgreSQL refuses to run it once they
   * would), so a run does not ask for them again.
   */
  rowDescription: messages.BackendMessage[];
}

function concat(parts: Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}

type Parsers = PGlite['parsers'];

/**
 * The result of one bound statement's messages, as PGlite's parse.parseResults makes it, but looking
 * each column's parser up in the query's own parsers and then PGlite's instead of first merging the
 * two: drizzle passes parsers with every query, and copying PGlite's 318 took 0.1 to 0.15 ms each time,
 * five times per password sign-in (bench/password-login.bench.ts).
 */
function resultOf<T>(answer: readonly messages.BackendMessage[], defaults: Parsers, options: QueryOptions | undefined): Results<T> {
  const own = options?.parsers;
  const asArrays = options?.rowMode === 'array';
  let fields: { name: string; dataTypeID: number }[] = [];
  let readers: ((value: string) => unknown)[] = [];
  const rows: unknown[] = [];
  let affectedRows = 0;
  let command: string | undefined;
  let rowCount: number | undefined;
  for (const message of answer) {
    if (message.name === 'rowDescription') {
      fields = (message as messages.RowDescriptionMessage).fields.map(({ name, dataTypeID }) => ({ name, dataTypeID }));
      readers = fields.map(({ dataTypeID }) => {
        const read = own?.[dataTypeID] ?? defaults[dataTypeID];
        return read ? (value: string) => read(value, dataTypeID) : (value: string) => value;
      });
    } else if (message.name === 'dataRow') {
      const values = (message as messages.DataRowMessage).fields.map((value, index) => (value === null ? null : readers[index]!(value)));
      rows.push(asArrays ? values : Object.fromEntries(values.map((value, index) => [fields[index]!.name, value])));
    } else if (message.name === 'commandComplete') {
      const words = (message as messages.CommandCompleteMessage).text.split(' ');
      command = words[0];
      const count = parseInt(words[words.length - 1]!, 10);
      if (['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE'].includes(command!)) affectedRows += count;
      if (!Number.isNaN(count)) rowCount = count;
    }
  }
  return {
    rows: rows as T[],
    fields,
    affectedRows,
    ...(command === undefined ? {} : { command }),
    ...(rowCount === undefined ? {} : { rowCount }),
  };
}

/** What drizzle-orm's PGlite driver calls on its client. */
export interface PgliteClient {
  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  transaction<T>(run: (tx: Transaction) => Promise<T>): Promise<T>;
}

/** Wraps `pg` so that repeated statements run as named prepared statements (see above). */
export function preparedStatementsClient(pg: PGlite, capacity = STATEMENT_CACHE_SIZE): PgliteClient {
  const { serialize } = protocol;
  // In order of last use: the first one is the next to be dropped.
  const cache = new Map<string, Prepared>();
  let counter = 0;

  /** Runs `text` as a named statement; call only while holding PGlite's query lock. */
  async function run<T>(text: string, params: unknown[], options: QueryOptions | undefined, syncToFs: boolean): Promise<Results<T>> {
    let prepared = cache.get(text);
    if (prepared) {
      cache.delete(text);
    } else {
      const name = `foyer_${(counter += 1)}`;
      const described = await pg.execProtocol(
        concat([serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync()]),
        { syncToFs: false },
      );
      prepared = {
        name,
        paramTypes: parse.parseDescribeStatementResults(described.messages),
        rowDescription: described.messages.filter((message) => message.name === 'rowDescription'),
      };
      if (cache.size >= capacity) {
        const [oldestText, oldest] = cache.entries().next().value as [string, Prepared];
        cache.delete(oldestText);
        await pg.execProtocol(concat([serialize.close({ type: 'S', name: oldest.name }), serialize.sync()]), { syncToFs: false });
      }
    }
    cache.set(text, prepared);
    const values = params.map((value, index) => {
      if (value === null || value === undefined) return null;
      const type = prepared.paramTypes[index]!;
      const write = options?.serializers?.[type] ?? pg.serializers[type];
      return write ? write(value) : String(value);
    });
    const answer = await pg.execProtocol(
      concat([serialize.bind({ statement: prepared.name, values }), serialize.execute({}), serialize.sync()]),
      { syncToFs },
    );
    return resultOf<T>([...prepared.rowDescription, ...answer.messages], pg.parsers, options);
  }

  // Large objects (COPY with a blob) and explicit parameter types keep PGlite's own path.
  const plain = (options?: QueryOptions) => options?.blob === undefined && options?.paramTypes === undefined;

  return {
    query<T>(text: string, params: unknown[] = [], options?: QueryOptions) {
      if (!plain(options)) return pg.query<T>(text, params, options);
      // The same locks as PGlite's query(): not inside another caller's transaction, one statement at a time.
      return pg._runExclusiveTransaction(() => pg._runExclusiveQuery(() => run<T>(text, params, options, true)));
    },
    transaction<T>(body: (tx: Transaction) => Promise<T>) {
      return pg.transaction((tx) =>
        body({
          query<R>(text: string, params: unknown[] = [], options?: QueryOptions) {
            if (tx.closed) throw new Error('Transaction is closed');
            if (!plain(options)) return tx.query<R>(text, params, options);
            // Written to the file system at commit, as PGlite does for its own transactions.
            return pg._runExclusiveQuery(() => run<R>(text, params, options, false));
          },
          sql: (strings, ...values) => tx.sql(strings, ...values),
          exec: (text, options) => tx.exec(text, options),
          rollback: () => tx.rollback(),
          listen: (channel, callback) => tx.listen(channel, callback),
          get closed() {
            return tx.closed;
          },
        }),
      );
    },
  };
}
