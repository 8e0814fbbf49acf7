import { describe, expect, it } from 'vitest';
import { telegramCheckAnswerSchema, telegramLinkAnswerSchema } from './telegram';

describe('telegram answers', () => {
  it('the link answer carries the link; the check answers a boolean', () => {
    expect(telegramLinkAnswerSchema.parse({ link: 'https://t.me/bot?start=abc' })).toEqual({
      link: 'https://t.me/bot?start=abc',
    });
    expect(telegramCheckAnswerSchema.parse(true)).toBe(true);
    expect(telegramCheckAnswerSchema.safeParse('true').success).toBe(false);
  });
});
