import { describe, expect, it } from 'vitest';
import { smsSegments } from './sms-segments';

describe('smsSegments (the composer shows the SMS segment count)', () => {
  it('counts nothing for an empty text', () => {
    expect(smsSegments('')).toEqual({ encoding: 'GSM-7', segments: 0, units: 0, left: 160 });
  });
  it('sends GSM-7 text as one segment of 160 and splits it in segments of 153', () => {
    expect(smsSegments('a'.repeat(160))).toEqual({ encoding: 'GSM-7', segments: 1, units: 160, left: 0 });
    expect(smsSegments('a'.repeat(161))).toEqual({ encoding: 'GSM-7', segments: 2, units: 161, left: 145 });
    expect(smsSegments('a'.repeat(306))).toMatchObject({ segments: 2, left: 0 });
    expect(smsSegments('a'.repeat(307))).toMatchObject({ segments: 3, left: 152 });
  });
  it('keeps accented letters of the GSM-7 alphabet in GSM-7', () => {
    expect(smsSegments('Olá, é só às 10h? ÑÜ ¿¡ £$@').encoding).toBe('UCS-2'); // 'á' is not in GSM-7
    expect(smsSegments('Hello é à ù ÄÖÑÜ ¿¡ £$@ _').encoding).toBe('GSM-7');
  });
  it('counts extension table characters twice and never splits their escape', () => {
    expect(smsSegments('€'.repeat(80))).toEqual({ encoding: 'GSM-7', segments: 1, units: 160, left: 0 });
    expect(smsSegments(`${'a'.repeat(159)}€`)).toMatchObject({ segments: 2, units: 161 });
    // 152 septets then a two-septet character: it moves whole to the second segment.
    expect(smsSegments(`${'a'.repeat(152)}[${'a'.repeat(10)}`)).toMatchObject({ segments: 2, units: 164, left: 153 - 12 });
  });
  it('sends the whole text as UCS-2 when one character is outside GSM-7', () => {
    expect(smsSegments('ç'.repeat(70))).toEqual({ encoding: 'UCS-2', segments: 1, units: 70, left: 0 });
    expect(smsSegments(`${'a'.repeat(70)}ç`)).toEqual({ encoding: 'UCS-2', segments: 2, units: 71, left: 63 });
  });
  it('counts an emoji as two UCS-2 units and keeps its pair in one segment', () => {
    expect(smsSegments('👍')).toEqual({ encoding: 'UCS-2', segments: 1, units: 2, left: 68 });
    expect(smsSegments(`${'a'.repeat(66)}👍`)).toMatchObject({ segments: 1, units: 68 });
    expect(smsSegments(`${'a'.repeat(70)}👍`)).toMatchObject({ segments: 2, units: 72 });
    expect(smsSegments(`${'a'.repeat(66)}👍${'a'.repeat(10)}`)).toMatchObject({ segments: 2, units: 78, left: 67 - 12 });
  });
});
