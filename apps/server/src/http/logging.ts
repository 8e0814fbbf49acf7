import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type {
  Bindings,
  ChildLoggerOptions,
  FastifyChildLoggerFactory,
} from 'fastify/types/logger.js';
import type { Config } from '../config.js';

const HIDDEN = '[скрыто]';

/**
 * Names of query parameters and headers whose values are secrets: tokens and codes
 * (`/auth?token=…`, the `/oauth` forward), Yandex's `state`, hand-off `link`s, and API keys,
 * passwords or sessions a client put where they do not belong. A name containing one of these
 * words is enough; hiding a harmless value costs nothing.
 */
const SECRET_NAME =
  /token|code|state|link|key|pass|secret|auth|cookie|sign|session|otp|credential/i;

function isSecretName(name: string): boolean {
  try {
    return SECRET_NAME.test(decodeURIComponent(name));
  } catch {
    return SECRET_NAME.test(name);
  }
}

/** Paths that are themselves the key: the sandbox's checkout pages (modules/payment-sandbox). */
const SECRET_PATHS = /(\/sandbox\/tbank\/pay\/)[^/?#]+/g;

/** The URL with secret paths and the value of every secret-named query parameter hidden. */
export function redactUrl(fullUrl: string): string {
  const url = fullUrl.replace(SECRET_PATHS, `$1${HIDDEN}`);
  const queryStart = url.indexOf('?');
  if (queryStart === -1) return url;
  const query = url
    .slice(queryStart + 1)
    .split('&')
    .map((pair) => {
      const nameEnd = pair.indexOf('=');
      if (nameEnd === -1 || !isSecretName(pair.slice(0, nameEnd))) return pair;
      return `${pair.slice(0, nameEnd)}=${HIDDEN}`;
    })
    .join('&');
  return `${url.slice(0, queryStart)}?${query}`;
}

/** A copy of a header map with the value of every secret-named header hidden. */
function redactHeaders(headers: unknown): unknown {
  if (typeof headers !== 'object' || headers === null) return headers;
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name, isSecretName(name) ? HIDDEN : value]),
  );
}

/** Where log lines go instead of stdout (tests read them). */
export interface LogStream {
  write(line: string): void;
}

export function loggerOptions(config: Config, stream?: LogStream) {
  return {
    level: config.LOG_LEVEL,
    stream,
    // Bodies and request headers are never logged. Header maps that do reach a log line (an
    // HTTP client's error carries the headers it sent or got) lose their secret values.
    redact: { paths: ['headers', '*.headers'], censor: redactHeaders },
    serializers: {
      req(request: FastifyRequest) {
        return {
          method: request.method,
          url: redactUrl(request.url),
          remoteAddress: request.ip,
        };
      },
    },
  };
}

/**
 * The access log. Fastify's own writes two lines for every request, which cost as much CPU as
 * the cheapest requests themselves; every request is counted in the metrics anyway (by route and
 * status). So by default a request gets a line only when something is wrong: a server error
 * (5xx, beside the error's own line from error-handler.ts) or an answer slower than
 * `ACCESS_LOG_SLOW_MS`, both at `warn`. `ACCESS_LOG=all` adds one `info` line for every other
 * request. Fastify's lines are off in app.ts (`disableRequestLogging`).
 */
export function registerAccessLog(app: FastifyInstance, config: Config): void {
  const everyRequest = config.ACCESS_LOG === 'all';
  const slowMs = config.ACCESS_LOG_SLOW_MS;
  // A callback hook, not an async one: no promise per request on the hottest path.
  app.addHook('onResponse', (request, reply, done) => {
    const responseTime = reply.elapsedTime;
    const failed = reply.statusCode >= 500;
    if (failed || responseTime >= slowMs) {
      request.log.warn(
        { req: request, res: reply, responseTime },
        failed ? 'request failed' : 'slow request',
      );
    } else if (everyRequest) {
      request.log.info({ req: request, res: reply, responseTime }, 'request completed');
    }
    done();
  });
}

type LogMethod = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * A request's logger (`request.log`), made only when the request writes a line. Fastify makes a
 * pino child with the request id for every request, and most requests now write none
 * (`registerAccessLog`): the child cost more than a tenth of a cheap request.
 */
class LazyChildLogger {
  #child: FastifyBaseLogger | undefined;
  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  #logger(): FastifyBaseLogger {
    this.#child ??= this.parent.child(this.bindings, this.options);
    return this.#child;
  }

  get level() {
    return this.#child?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.#logger().level = level;
  }

  #write(method: LogMethod, args: unknown[]) {
    (this.#logger()[method] as (...args: unknown[]) => void)(...args);
  }

  // Methods, not arrow-function fields: seven closures for every request cost more than the
  // logger they stand in for. Called as `request.log.warn(…)`, as Fastify and pino call them.
  fatal(...args: unknown[]) {
    this.#write('fatal', args);
  }
  error(...args: unknown[]) {
    this.#write('error', args);
  }
  warn(...args: unknown[]) {
    this.#write('warn', args);
  }
  info(...args: unknown[]) {
    this.#write('info', args);
  }
  debug(...args: unknown[]) {
    this.#write('debug', args);
  }
  trace(...args: unknown[]) {
    this.#write('trace', args);
  }
  silent() {}

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#logger().child(bindings, options);
  }
}

export const lazyChildLogger: FastifyChildLoggerFactory = (logger, bindings, options) =>
  new LazyChildLogger(logger, bindings, options) as unknown as FastifyBaseLogger;
