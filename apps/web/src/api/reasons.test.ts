import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { pt } from '../i18n/pt';
import { reasonText } from './reasons';

describe('failure reasons in the UI language', () => {
  const i18n = i18next.createInstance();
  beforeAll(async () => {
    await i18n.init({
      lng: 'pt',
      fallbackLng: 'en',
      resources: { pt: { translation: pt } },
      keySeparator: false,
      nsSeparator: false,
      interpolation: { escapeValue: false },
    });
  });

  it('words a provider code from a send refusal or a delivery receipt', () => {
    expect(reasonText('360dialog answered 400: (#131026) Message undeliverable', i18n.t)).toBe(
      'Este número não pode receber mensagens de WhatsApp (#131026)',
    );
    expect(reasonText('131047: Re-engagement message', i18n.t)).toBe(
      'Mais de 24 horas desde a última mensagem do cliente: só um modelo pode ser enviado (#131047)',
    );
    expect(reasonText('Twilio answered 400: (#63016) Failed to send freeform message', i18n.t)).toContain('(#63016)');
  });

  it('words what a channel refused by the code at the end of the reason', () => {
    expect(reasonText("Messenger takes replies only within 24 hours of the contact's last message (channel_window_closed)", i18n.t)).toBe(
      'Mais de 24 horas desde a última mensagem do contato: este canal não aceita resposta até ele escrever de novo',
    );
    expect(reasonText('Instagram takes messages of at most 1000 characters (channel_text_too_long)', i18n.t)).toBe(
      'O texto é maior do que este canal aceita',
    );
  });

  it("translates the server's own reasons, with their numbers", () => {
    expect(reasonText('Parameter 3 is required', i18n.t)).toBe('O parâmetro 3 é obrigatório');
    expect(reasonText('Número de telefone inválido', i18n.t)).toBe('Número de telefone inválido');
    expect(reasonText('Recipient is not a valid WhatsApp user', i18n.t)).not.toBe('Recipient is not a valid WhatsApp user');
  });

  it('keeps an unknown provider text as written', () => {
    expect(reasonText('Cloud API answered 400: (#999999) Something new', i18n.t)).toBe('Cloud API answered 400: (#999999) Something new');
  });
});

describe('report reply values', () => {
  it('names a free-text reply and a button that ran the default action', async () => {
    const { replyActionText } = await import('../features/campaigns/phrases');
    const i18n = i18next.createInstance();
    await i18n.init({
      lng: 'pt',
      resources: { pt: { translation: pt } },
      keySeparator: false,
      nsSeparator: false,
      interpolation: { escapeValue: false },
    });
    expect(replyActionText('reply', i18n.t)).toBe('Resposta em texto livre');
    expect(replyActionText('Talvez (DEFAULT_ACTION)', i18n.t)).toBe('Talvez (ação padrão)');
    expect(replyActionText('Quero', i18n.t)).toBe('Quero');
    expect(replyActionText(null, i18n.t)).toBe('--');
  });
});
