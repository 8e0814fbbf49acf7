import { describe, expect, it } from 'vitest';
import { devicesCountText } from './devices-count-text';

describe('devicesCountText', () => {
  it.each([
    [0, '0 устройств'],
    [1, '1 устройство'],
    [2, '2 устройства'],
    [4, '4 устройства'],
    [5, '5 устройств'],
    [11, '11 устройств'],
    [12, '12 устройств'],
    [21, '21 устройство'],
    [22, '22 устройства'],
    [25, '25 устройств'],
    [101, '101 устройство'],
    [111, '111 устройств'],
  ])('%i → %s', (count, text) => {
    expect(devicesCountText(count)).toBe(text);
  });
});
