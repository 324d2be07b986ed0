/**
 * The URL a person can open for a server listening on `host`: a wildcard address (0.0.0.0, ::)
 * accepts connections but cannot be browsed to, so loopback stands in for it.
 */
export function reachableUrl(host: string, port: number): string {
  if (host === '0.0.0.0' || host === '') return `http://127.0.0.1:${port}`;
  if (host === '::' || host === '[::]') return `http://localhost:${port}`;
  return `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`;
}
