// The contract between the `ratios` suite (bench/suites/ratios.ts) and the pair modules beside
// this file. Every other bench/ratios/*.ts default-exports a PairFactory; the suite builds one
// fixture, calls each factory once and times every pair it returns, interleaved.
import type Database from 'better-sqlite3';
import type { Ledger } from '@core/ledger/index';

/** The project's call and hand-written code doing the same work, to be timed side by side. */
export interface RatioPair<T = unknown> {
  /** Metric name, e.g. 'ratios.listPage'. */
  name: string;
  /** The project's own call. */
  project(): T | Promise<T>;
  /** Hand-written SQL (or the raw library call) producing the same result. */
  raw(): T | Promise<T>;
  /** Whether the two results are the same; default: deep equality. */
  same?(a: T, b: T): boolean;
  /** Undoes a call's writes before the next one (e.g. deletes the rows a save added); not timed. */
  reset?(): void | Promise<void>;
  /** Frees what the pair holds (a recognizer, an extra connection) once the suite is done. */
  dispose?(): void | Promise<void>;
}

/** What every factory gets: one seeded ledger, shared by all pairs. */
export interface RatioFixture {
  /** The SQLite file, seeded through the project's schema. */
  path: string;
  /** How many transactions it holds. */
  rows: number;
  /** The ledger opened as the app opens it. */
  ledger: Ledger;
  /**
   * The same connection (`ledger.database`), for the raw side: same pragmas and page cache, so
   * only the code on top differs. Prepare raw statements once, in the factory, as hand-written
   * code would.
   */
  db: Database.Database;
  /** A month well inside the seeded range (≈ rows / 36 transactions), e.g. '2025-06'. */
  month: string;
  /** A scratch directory removed when the suite ends (for pairs that write files). */
  dir: string;
}

/**
 * A pair module's default export. A string return means "skipped", with the reason printed.
 * (RatioPair's members are methods, so a RatioPair<Row[]> is a RatioPair<unknown> here.)
 */
export type PairFactory = (fx: RatioFixture) => PairsOrSkip | Promise<PairsOrSkip>;
export type PairsOrSkip = RatioPair | RatioPair[] | string;
