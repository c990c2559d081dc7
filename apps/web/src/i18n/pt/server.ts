/**
 * Words the web shows that the server wrote, still translated by their English text: the providers'
 * failure reasons of messages (api/reasons.ts). Failures and the fields a request schema refuses are
 * worded by code: api/errors.ts ERROR_TEXTS and pt/errors.ts.
 */
export const ptServer: Record<string, string> = {
  // providers' error codes (api/reasons.ts)
  'This number cannot receive WhatsApp messages': 'Este número não pode receber mensagens de WhatsApp',
  'The phone number is not valid': 'O número de telefone não é válido',
  'More than 24 hours since the customer last wrote: only a template can be sent':
    'Mais de 24 horas desde a última mensagem do cliente: só um modelo pode ser enviado',
  'WhatsApp held this marketing message back to protect the customer (too many marketing messages)':
    'O WhatsApp reteve esta mensagem de marketing para proteger o cliente (mensagens de marketing demais)',
  "The provider's sending rate was exceeded; try again later": 'O limite de envio do provedor foi excedido; tente novamente mais tarde',
  'Too many messages to this number in a short time; try again later':
    'Mensagens demais para este número em pouco tempo; tente novamente mais tarde',
  'The number of parameters does not match the template': 'O número de parâmetros não corresponde ao modelo',
  'The template does not exist at the provider in this language': 'O modelo não existe no provedor neste idioma',
  'The text with the parameters is too long for the template': 'O texto com os parâmetros é longo demais para o modelo',
  "The template breaks the provider's formatting rules": 'O modelo viola as regras de formatação do provedor',
  'A parameter has a format the template does not accept': 'Um parâmetro tem um formato que o modelo não aceita',
  'The template is paused at the provider': 'O modelo está pausado no provedor',
  'The template was disabled by the provider': 'O modelo foi desativado pelo provedor',
  'A required parameter is missing': 'Falta um parâmetro obrigatório',
  'A parameter value is not valid': 'O valor de um parâmetro não é válido',
  'This type of message is not supported': 'Este tipo de mensagem não é suportado',
  'The media could not be downloaded from the customer': 'A mídia do cliente não pôde ser baixada',
  'The media could not be uploaded': 'A mídia não pôde ser enviada',
  'The WhatsApp Business account is locked': 'A conta do WhatsApp Business está bloqueada',
  'The WhatsApp Business account has a payment problem': 'A conta do WhatsApp Business tem um problema de pagamento',
  'The WhatsApp number is temporarily blocked for policy violations':
    'O número de WhatsApp está temporariamente bloqueado por violação de políticas',
  'The provider could not send the message': 'O provedor não conseguiu enviar a mensagem',
  'More than 24 hours since the contact last wrote: this channel takes no reply until they write again':
    'Mais de 24 horas desde a última mensagem do contato: este canal não aceita resposta até ele escrever de novo',
  'The text is longer than this channel takes': 'O texto é maior do que este canal aceita',
  'The caption is longer than this channel takes': 'A legenda é maior do que este canal aceita',
  'This channel does not take this type of file': 'Este canal não aceita este tipo de arquivo',
  'The file is larger than this channel takes': 'O arquivo é maior do que este canal aceita',
};
