import { describe, expect, it } from 'vitest';
import { catalogueItemSchema, ownerServicesAnswerSchema } from './services';

describe('services', () => {
  it('an owner service has the fields amount, message, serverCount', () => {
    const service = {
      id: 's1',
      amount: 1790,
      message: 'Игровой сервер',
      serverCount: 1,
      autoRenew: true,
      manageUrl: 'https://hosting.example/manage/s1',
      paidUntil: '2025-04-01T00:00:00.000Z',
      status: 'active',
    };
    expect(ownerServicesAnswerSchema.safeParse([service]).success).toBe(true);
    expect(ownerServicesAnswerSchema.safeParse([{ ...service, serverCount: 1.5 }]).success).toBe(
      false,
    );
  });

  it('a catalogue item is active, inactive or soon', () => {
    const item = {
      imgUrl: '/img/hosting.svg',
      title: 'Хостинг',
      description: 'Игровые серверы',
      link: 'https://hosting.example',
      status: 'soon',
    };
    expect(catalogueItemSchema.safeParse(item).success).toBe(true);
    expect(catalogueItemSchema.safeParse({ ...item, status: 'beta' }).success).toBe(false);
  });
});
