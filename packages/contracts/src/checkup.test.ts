import { describe, expect, it } from 'vitest';
import { CHECKUP_ITEMS, CHECKUP_TEXTS, checkupAnswerSchema, checkupHomeLine } from './checkup';

describe('the checkup contract', () => {
  it('words the home line with the Russian plural', () => {
    expect(checkupHomeLine(1)).toBe('Проверка безопасности: 1 пункт требует внимания');
    expect(checkupHomeLine(2)).toBe('Проверка безопасности: 2 пункта требуют внимания');
    expect(checkupHomeLine(5)).toBe('Проверка безопасности: 5 пунктов требуют внимания');
    expect(checkupHomeLine(11)).toBe('Проверка безопасности: 11 пунктов требуют внимания');
    expect(checkupHomeLine(21)).toBe('Проверка безопасности: 21 пункт требует внимания');
  });

  it('has the words of every item and refuses an unknown one', () => {
    for (const item of CHECKUP_ITEMS) expect(CHECKUP_TEXTS[item].todo).not.toBe('');
    expect(
      checkupAnswerSchema.safeParse({ items: [{ item: 'passkeys', isDone: true }], missing: 0 })
        .success,
    ).toBe(false);
  });
});
