/** Query parameters that carry secrets: provider verify tokens, signed-link signatures, tokens. */
const SECRET_PARAMS = /^(hub\.verify_token|signature|token|access_token|api_key|visitor_token|login_code|secret|code)$/i;

/**
 * The request URL as access logs may keep it: secret query values replaced. Logs
 * travel further than the database, and a webhook verification or a signed download link would
 * otherwise leave its secret in every log line.
 */
export function logSafeUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const params = new URLSearchParams(url.slice(at + 1));
  let changed = false;
  for (const key of [...params.keys()]) {
    if (SECRET_PARAMS.test(key)) {
      params.set(key, '[redacted]');
      changed = true;
    }
  }
  return changed ? `${url.slice(0, at)}?${params.toString()}` : url;
}

/** Fastify's request log fields, with the URL made safe. */
export const requestLogSerializer = (req: {
  method: string;
  url: string;
  host?: string;
  hostname?: string;
  ip?: string;
  socket?: { remotePort?: number };
}) => ({
  method: req.method,
  url: logSafeUrl(req.url),
  host: req.host ?? req.hostname,
  remoteAddress: req.ip,
  remotePort: req.socket?.remotePort,
});
