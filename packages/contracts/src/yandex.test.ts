import { describe, expect, it } from 'vitest';
import { yandexCallbackQuerySchema, yandexUrlAnswerSchema } from './yandex';

describe('yandex', () => {
  it('getUrl answers status and data.url', () => {
    expect(
      yandexUrlAnswerSchema.safeParse({ status: 'ok', data: { url: 'https://oauth.yandex.ru/a' } })
        .success,
    ).toBe(true);
    expect(yandexUrlAnswerSchema.safeParse({ status: 'ok', url: 'x' }).success).toBe(false);
  });

  it('the callback reads the forwarded fragment and drops unknown keys', () => {
    expect(
      yandexCallbackQuerySchema.parse({
        access_token: 't',
        token_type: 'bearer',
        expires_in: '31536000',
        state: 's',
        extra: 'x',
      }),
    ).toEqual({ access_token: 't', token_type: 'bearer', expires_in: '31536000', state: 's' });
  });
});
