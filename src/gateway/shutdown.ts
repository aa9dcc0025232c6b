// Graceful stop on SIGTERM/SIGINT, so a rolling restart loses no request. First a drain: the
// instance keeps listening and serving, but /readyz answers 503 (a balancer that polls it stops
// sending) and every answer carries Connection: close. Then the close: stop listening, let
// requests in flight finish, close Redis and exit 0.
import type { FastifyInstance } from 'fastify';

export interface ShutdownOptions {
  /** How long the instance goes on serving, not ready, before it stops listening. */
  drainMs: number;
  /** Then: how long requests in flight may take before their connections are cut. */
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
  const { drainMs, graceMs } = options;
  const close = () => {
    app.log.info({ event: 'shutdown_closing' }, 'drained: no new connections, finishing requests in flight');
    let cut = false;
    const timer = setTimeout(() => {
      cut = true;
      app.log.error({ event: 'shutdown_grace_expired', graceMs }, 'grace period over: cutting the requests still in flight');
      app.server.closeAllConnections();
    }, graceMs);
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
  const stop = (signal: NodeJS.Signals) => {
    // Not ready before the line says so: whoever reads the log may rely on /readyz being 503.
    app.gatewayDrain();
    app.log.info({ event: 'shutdown', signal, drainMs, graceMs }, 'stopping: /readyz answers 503, still serving until the drain is over');
    setTimeout(close, drainMs);
  };
  const signals = options.signals ?? process;
  signals.once('SIGTERM', () => stop('SIGTERM'));
  signals.once('SIGINT', () => stop('SIGINT'));
}
