/** The life of every request the UI waits on: not sent, in flight, answered, failed. */
export type RequestStatus = 'idle' | 'loading' | 'success' | 'failed';
