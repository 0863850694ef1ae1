import { describe, expect, it } from 'vitest';
import { aowDate, formattedName, fullLastName, isValidCitizenServiceNumber, isValidIban, revocationDue } from '#sandbox/domain/employments/person.js';

describe('citizen service number (11-test)', () => {
  it('accepts valid numbers', () => {
    for (const bsn of ['111222333', '123456782', '999999990']) expect(isValidCitizenServiceNumber(bsn)).toBe(true);
  });
  it('refuses a wrong check digit, a wrong length, non-digits and all zeros', () => {
    for (const bsn of ['123456789', '12345678', '1234567820', '12345678a', '000000000']) expect(isValidCitizenServiceNumber(bsn)).toBe(false);
  });
});

describe('IBAN (mod-97)', () => {
  it('accepts valid and refuses altered IBANs', () => {
    expect(isValidIban('NL91ABNA0417164300')).toBe(true);
    expect(isValidIban('NL91 ABNA 0417 1643 00')).toBe(true);
    expect(isValidIban('NL91ABNA0417164301')).toBe(false);
  });
});

describe('names', () => {
  const p = { firstName: 'Anna', initials: 'A.M.', prefix: 'de', lastName: 'Vries', prefixPartner: 'van', lastNamePartner: 'Dijk' };
  it('formats the last name by howToFormatLastName', () => {
    expect(fullLastName({ ...p, howToFormatLastName: { key: 1 } })).toBe('de Vries');
    expect(fullLastName({ ...p, howToFormatLastName: { key: 2 } })).toBe('van Dijk');
    expect(fullLastName({ ...p, howToFormatLastName: { key: 3 } })).toBe('van Dijk-de Vries');
    expect(fullLastName({ ...p, howToFormatLastName: { key: 4 } })).toBe('de Vries-van Dijk');
  });
  it('puts the initials (or the first name) before it', () => {
    expect(formattedName({ ...p, howToFormatLastName: { key: 1 } })).toBe('A.M. de Vries');
    expect(formattedName({ firstName: 'Sem', lastName: 'Bos' })).toBe('Sem Bos');
  });
});

describe('AOW date', () => {
  it('follows the statutory age per year', () => {
    expect(aowDate('1947-05-10')).toBe('2012-05-10'); // 65
    expect(aowDate('1948-01-15')).toBe('2013-02-15'); // 65 + 1 month
    expect(aowDate('1952-06-01')).toBe('2018-06-01'); // 66
    expect(aowDate('1957-03-01')).toBe('2024-03-01'); // 67
    expect(aowDate('1960-05-10')).toBe('2027-05-10'); // 67
    expect(aowDate('1961-06-15')).toBe('2028-09-15'); // 67 + 3 months
    expect(aowDate('1990-08-31')).toBe('2057-11-30'); // month end kept within the month
  });
});

describe('self-service revocation', () => {
  it('is due on and after its date', () => {
    expect(revocationDue('2027-01-31', '2027-01-30')).toBe(false);
    expect(revocationDue('2027-01-31', '2027-01-31')).toBe(true);
    expect(revocationDue(null, '2027-01-31')).toBe(false);
  });
});
