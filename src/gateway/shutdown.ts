// Graceful stop on SIGTERM/SIGINT, so a rolling restart loses no request: stop listening, let
// requests in flight finish (their answers carry Connection: close), then close Redis and exit 0.
import type { FastifyInstance } from 'fastify';

export interface ShutdownOptions {
  /** How long requests in flight may take before their connections are cut. */
  graceMs: number;
  exit?: (code: number) => void;
  /** Where the signals come from (tests pass an emitter of their own). */
  signals?: Pick<NodeJS.EventEmitter, 'once'>;
}

/**
 * Installs the signal handlers. A second signal gets Node's default action (ends the process at
 * once), as an operator pressing Ctrl-C twice expects. Exit codes: 0 after a clean close, 1 when
 * the grace period ran out and requests were cut, or closing failed.
 */
export function stopGracefullyOnSignals(app: FastifyInstance, options: ShutdownOptions): void {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const stop = (signal: NodeJS.Signals) => {
    app.log.info({ event: 'shutdown', signal, graceMs: options.graceMs }, 'stopping: no new connections, finishing requests in flight');
    let cut = false;
    const timer = setTimeout(() => {
      cut = true;
      app.log.error({ event: 'shutdown_grace_expired', graceMs: options.graceMs }, 'grace period over: cutting the requests still in flight');
      app.server.closeAllConnections();
    }, options.graceMs);
    app.close().then(
      () => {
        clearTimeout(timer);
        app.log.info({ event: 'shutdown_done', cut }, 'stopped');
        exit(cut ? 1 : 0);
      },
      (err: unknown) => {
        clearTimeout(timer);
        app.log.error({ event: 'shutdown_failed', err }, 'closing failed');
        exit(1);
      },
    );
  };
  const signals = options.signals ?? process;
  signals.once('SIGTERM', () => stop('SIGTERM'));
  signals.once('SIGINT', () => stop('SIGINT'));
}
