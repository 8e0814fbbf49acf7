const LOOPBACK_IPV4 = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

/**
 * A portal browsers reach only on this machine (`npm start` out of the box): an address of
 * localhost or loopback. Only there may the payment sandbox, where anyone can "pay" for free, be
 * chosen without being asked for (modules/payments), and may the OpenID provider post logout
 * tokens to a site on this machine (modules/oidc/provider.ts).
 */
export function isLocalPortal(publicUrl: string): boolean {
  // URL normalises the host: lower case, IPv4 in dotted decimal, IPv6 in brackets.
  const host = new URL(publicUrl).hostname;
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    LOOPBACK_IPV4.test(host) ||
    host === '[::1]'
  );
}
