import { useState } from 'react';
import { requestHandOff } from './api/request-hand-off';

/**
 * Opens a sibling site signed in: asks for a hand-off link and sends the browser there. When the
 * server will not issue one (a link off its allow-list, a network failure), the plain link still
 * takes the customer to the site, where they can sign in themselves.
 */
export function useSiblingLink() {
  const [openingLink, setOpeningLink] = useState<string | null>(null);

  const open = async (link: string) => {
    if (openingLink) return;
    setOpeningLink(link);
    let address = link;
    try {
      address = await requestHandOff(link);
    } catch {
      address = link;
    }
    window.location.assign(address);
    // Leaving the page; the button stays busy until then. A pagehide back (bfcache) resets it.
    window.addEventListener('pageshow', () => setOpeningLink(null), { once: true });
  };

  return { open, openingLink };
}
