import { describe, expect, it } from 'vitest';
import { csvField, neutraliseCsvText } from './csv-cell.js';

describe('CSV cells', () => {
  it.each([
    ['=HYPERLINK("http://evil.example","x")', `'=HYPERLINK("http://evil.example","x")`],
    ['+1+cmd|/c calc!A0', `'+1+cmd|/c calc!A0`],
    ['-2+3', `'-2+3`],
    ['@SUM(A1:A2)', `'@SUM(A1:A2)`],
    ['\t=1', `'\t=1`],
    ['\r=1', `'\r=1`],
    ['-', `'-`],
    [' =1+1', `' =1+1`],
    ['  @SUM(A1)', `'  @SUM(A1)`],
    ['\n=1', `'\n=1`],
    ['\r\n+1', `'\r\n+1`],
    ['\u3000=1', `'\u3000=1`],
    ['\uFF1DHYPERLINK("http://evil.example")', `'\uFF1DHYPERLINK("http://evil.example")`],
    ['\uFF0B1', `'\uFF0B1`],
    ['\uFF0D1', `'\uFF0D1`],
    ['\uFF20SUM(A1)', `'\uFF20SUM(A1)`],
    [' \uFF1D1', `' \uFF1D1`],
  ])('neutralises text that a spreadsheet would run as a formula: %j', (text, expected) => {
    expect(neutraliseCsvText(text)).toBe(expected);
  });

  it.each(['-0.05', '-5', '250.00', '0', 'Rent', 'a=b', '', ' Rent', 'Rent =1', '\uFF21BC'])('keeps numbers and ordinary text as they are: %j', (text) => {
    expect(neutraliseCsvText(text)).toBe(text);
  });

  it('quotes after neutralising', () => {
    expect(csvField('=1,2')).toBe(`"'=1,2"`);
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField(null)).toBe('');
    expect(csvField(-5)).toBe('-5');
  });
});
