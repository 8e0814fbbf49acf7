const plural = new Intl.PluralRules('ru-RU');
const FORMS: Record<string, string> = {
  one: 'устройство',
  few: 'устройства',
  many: 'устройств',
  other: 'устройства',
};

/** 'N устройства' with the Russian plural: 1 устройство, 2 устройства, 5 устройств, 21 устройство. */
export function devicesCountText(count: number): string {
  return `${count} ${FORMS[plural.select(count)] ?? FORMS.many}`;
}
