import { DEFAULT_RATE_LIMIT, type RateLimitConfig } from './limits/rateLimiter';

/**
 * Data centers of the spec: "US, EU, IN, AU, JP, CA, CN, SA, UK, UAE (API only), SG (API only);
 * accounts addresses are listed for CA, US, AU, JP, UK, IN, CN, EU, SA".
 */
export const DATA_CENTERS = ['us', 'eu', 'in', 'au', 'jp', 'ca', 'cn', 'sa', 'uk', 'uae', 'sg'];
export const API_ONLY_DATA_CENTERS = new Set(['uae', 'sg']);

/**
 * The comment path uses "a fixed literal text segment containing a space, used as-is"; the
 * literal itself is not shown in the spec, so the emulator (and its service profile) use this.
 */
export const DEFAULT_COMMENT_SEGMENT = 'record comments';

export interface EmulatorOptions {
  /** First port; with several data centers each gets the next one. 0: any free ports. */
  port?: number;
  host?: string;
  /**
   * Names besides 127.0.0.1, localhost, [::1] and `host` that requests may address the servers
   * by (their Host header), e.g. a container's or a proxy's name. Anything else is refused, so a
   * web page cannot reach a loopback emulator by re-pointing its own name (DNS rebinding).
   */
  allowedHosts?: string[];
  dcs?: string[];
  records?: number;
  /**
   * Portals in the first data center, each with `modules` custom modules and an even share of
   * the records (for benchmarks with many endpoint keys). Neither given: the demo's layout, two
   * portals of three modules with 60 % and 40 % of the records.
   */
  portals?: number;
  /** Custom modules of each portal when `portals` or `modules` is given (default 3). */
  modules?: number;
  seed?: number;
  timeScale?: number;
  /**
   * Access tokens last their real hour whatever the time scale (`--unscaled-token-lifetime`);
   * every other duration still passes `timeScale` times faster.
   */
  unscaledTokenLifetime?: boolean;
  /** A file to keep data in across runs; in memory when absent. */
  data?: string;
  autoApprove?: boolean;
  /** Each data center gets its own client secret ("each data center has its own client secret"). */
  multiDc?: boolean;
  clientId?: string;
  clientSecret?: string;
  redirectUri?: string;
  rateLimit?: Partial<RateLimitConfig>;
  adminSecret?: string;
  commentSegment?: string;
  /** Where unexpected errors are reported; the server keeps serving. */
  log?: (message: string) => void;
  /**
   * Refuse a refresh whose parameters come in the form body (the spec shows them in the query);
   * off by default, since standard OAuth clients send the body. For tests that want the spec's
   * placement exactly.
   */
  strictOAuthPlacement?: boolean;
}

export interface EmulatorConfig {
  port: number;
  host: string;
  /** The names a request's Host may use besides the loopback ones: `host` and `allowedHosts`. */
  allowedHosts: string[];
  dcs: string[];
  records: number;
  /** `--portals`/`--modules`; null: the demo's own layout of portals and modules. */
  spread: SeedSpread | null;
  seed: number;
  timeScale: number;
  unscaledTokenLifetime: boolean;
  data: string | undefined;
  autoApprove: boolean;
  multiDc: boolean;
  client: { clientId: string; clientSecret: string; redirectUri: string };
  rateLimit: RateLimitConfig;
  adminSecret: string;
  commentSegment: string;
  log: (message: string) => void;
  strictOAuthPlacement: boolean;
}

/** N portals of M custom modules each, the records spread evenly over all N × M modules. */
export interface SeedSpread {
  portals: number;
  modules: number;
}

/** Bounds of `--portals` and `--modules`: enough for any benchmark, small enough to seed. */
export const MAX_SEED_PORTALS = 200;
export const MAX_SEED_MODULES = 100;
/** The demo's layout, used for whichever of the two is left out when the other is given. */
const DEMO_PORTALS = 2;
const DEMO_MODULES = 3;

function seedSpread(options: EmulatorOptions): SeedSpread | null {
  if (options.portals === undefined && options.modules === undefined) return null;
  const portals = options.portals ?? DEMO_PORTALS;
  const modules = options.modules ?? DEMO_MODULES;
  if (!Number.isInteger(portals) || portals < 1 || portals > MAX_SEED_PORTALS) {
    throw new Error(`--portals must be a whole number from 1 to ${MAX_SEED_PORTALS}.`);
  }
  if (!Number.isInteger(modules) || modules < 1 || modules > MAX_SEED_MODULES) {
    throw new Error(`--modules must be a whole number from 1 to ${MAX_SEED_MODULES}.`);
  }
  return { portals, modules };
}

export const DEMO_CLIENT = {
  clientId: '1000.PORTALDESKDEMO',
  clientSecret: 'demo-client-secret-0b7f3c',
  redirectUri: 'http://127.0.0.1:53682/callback',
};

export function resolveConfig(
  options: EmulatorOptions,
  randomSecret: () => string,
): EmulatorConfig {
  const dcs = (options.dcs ?? ['us']).map((dc) => dc.toLowerCase());
  for (const dc of dcs) {
    if (!DATA_CENTERS.includes(dc)) {
      throw new Error(`Unknown data center "${dc}"; known: ${DATA_CENTERS.join(', ')}.`);
    }
  }
  if (new Set(dcs).size !== dcs.length) throw new Error('A data center is listed twice.');
  if (dcs.every((dc) => API_ONLY_DATA_CENTERS.has(dc))) {
    throw new Error('At least one data center with an accounts server (not uae or sg) is needed.');
  }
  const records = options.records ?? 5000;
  if (!Number.isInteger(records) || records < 0) throw new Error('--records must be 0 or more.');
  return {
    port: options.port ?? 0,
    host: options.host ?? '127.0.0.1',
    allowedHosts: [options.host ?? '127.0.0.1', ...(options.allowedHosts ?? [])],
    dcs,
    records,
    spread: seedSpread(options),
    seed: options.seed ?? 42,
    timeScale: options.timeScale ?? 1,
    unscaledTokenLifetime: options.unscaledTokenLifetime ?? false,
    data: options.data,
    autoApprove: options.autoApprove ?? false,
    multiDc: options.multiDc ?? false,
    client: {
      clientId: options.clientId ?? DEMO_CLIENT.clientId,
      clientSecret: options.clientSecret ?? DEMO_CLIENT.clientSecret,
      redirectUri: options.redirectUri ?? DEMO_CLIENT.redirectUri,
    },
    rateLimit: { ...DEFAULT_RATE_LIMIT, enabled: true, ...options.rateLimit },
    adminSecret: options.adminSecret ?? randomSecret(),
    commentSegment: options.commentSegment ?? DEFAULT_COMMENT_SEGMENT,
    log: options.log ?? ((message) => console.error(message)),
    strictOAuthPlacement: options.strictOAuthPlacement ?? false,
  };
}
