/**
 * The provider as the signing keys are now. oidc-provider takes its keys once, when it is built,
 * and publishes that set; a rotation (signing-keys.ts) changes which keys are published and
 * which one signs. So every `RELOAD_EVERY_S` (plugin.ts) the keys are read again and, when the
 * set or the signing key changed, a new provider is built from the same configuration and takes
 * the next requests; requests in flight finish on the one they started on. Nothing else is
 * lost: every model lives in the database (adapter.ts) and the cookie keys derive from SECRET_KEY.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import type { JWK } from 'oidc-provider';
import { withRequestReads } from './adapter.js';
import type { SigningKeys } from './signing-keys.js';

export interface LiveProviderDeps {
  signingKeys: Pick<SigningKeys, 'load'>;
  /**
   * Builds a provider on these keys. Everything a provider is given (listeners included) is
   * given here, since a rotation builds another one.
   */
  build: (keys: JWK[]) => Provider;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export class LiveProvider {
  private provider!: Provider;
  private handler!: Handler;
  private shape = '';

  constructor(private readonly deps: LiveProviderDeps) {}

  /** The provider that takes the next request. */
  current(): Provider {
    return this.provider;
  }

  /**
   * Answers one request with the current provider (its Koa app on the raw request), with the
   * adapter's reads of this request kept apart from every other's (adapter.ts).
   */
  handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const handler = this.handler;
    return withRequestReads(() => handler(req, res));
  }

  /**
   * Reads the keys and builds a provider when what is published or what signs has changed;
   * answers whether it did. The first call builds the first provider.
   */
  async refresh(): Promise<boolean> {
    const keys = await this.deps.signingKeys.load();
    const shape = keys.map((key) => `${key.kid}:${key.key_ops?.join('+') ?? 'sign'}`).join(',');
    if (shape === this.shape) return false;
    const provider = this.deps.build(keys);
    this.provider = provider;
    this.handler = provider.callback() as unknown as Handler;
    this.shape = shape;
    return true;
  }
}
