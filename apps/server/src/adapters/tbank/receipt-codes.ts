/**
 * The codes a T-Bank receipt (54-FZ) takes for the seller's taxation system and an item's VAT:
 * the settings accept only these (config.ts), and the sandbox refuses a receipt with any other.
 */
export const RECEIPT_TAXATIONS = [
  'osn',
  'usn_income',
  'usn_income_outcome',
  'esn',
  'patent',
] as const;

export const RECEIPT_VATS = [
  'none',
  'vat0',
  'vat5',
  'vat7',
  'vat10',
  'vat20',
  'vat105',
  'vat107',
  'vat110',
  'vat120',
] as const;
