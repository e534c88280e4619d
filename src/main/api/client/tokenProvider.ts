/**
 * Where the client gets access tokens (the sign-in implements it; tokens are per data center).
 * `refresh(rejected)` is called with the token the service refused and returns a new one; the
 * client makes sure only one refresh runs for a refused token, however many requests failed.
 */
export interface TokenProvider {
  accessToken(): Promise<string>;
  refresh(rejected: string): Promise<string>;
}
