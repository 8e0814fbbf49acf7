/** The life of every request the UI waits on (spec §3–4). */
export type RequestStatus = 'idle' | 'loading' | 'success' | 'failed';
