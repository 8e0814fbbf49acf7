import { describe, expect, it } from 'vitest';
import { tbankDateTime } from './client.js';

describe('tbankDateTime', () => {
  it('writes Moscow time with its offset, as the RedirectDueDate example does', () => {
    expect(tbankDateTime(new Date('2016-08-31T09:28:00Z'))).toBe('2016-08-31T12:28:00+03:00');
    // Across midnight and with milliseconds dropped; the same moment when read back.
    const late = new Date('2026-12-31T22:30:15.999Z');
    expect(tbankDateTime(late)).toBe('2027-01-01T01:30:15+03:00');
    expect(Date.parse(tbankDateTime(late))).toBe(Date.parse('2026-12-31T22:30:15Z'));
  });
});
