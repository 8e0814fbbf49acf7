/** The Node.js flags the portal's process runs with (`npm start`, the bench's portals). */
export const PORTAL_NODE_ARGS: string[];
