/**
 * Words the web shows that the server wrote, still translated by their English text: the messages of
 * fields the contract's schemas and the shared rules set (shown under the field when its code is one
 * the schema derives), and the providers' failure reasons of messages (api/reasons.ts). Failures
 * themselves are worded by code: api/errors.ts ERROR_TEXTS and pt/errors.ts.
 */
export const ptServer: Record<string, string> = {
  // requests and sessions
  'Send this request as application/json': 'Envie esta requisição como application/json',
  'The code has 6 digits': 'O código tem 6 dígitos',
  'page must be a path of this app': 'page deve ser um caminho deste aplicativo',
  'Request body is too large': 'O corpo da requisição é grande demais',
  // A pasted markdown image the server downloads.
  'Invalid room': 'Sala inválida',
  'You may not leave this room': 'Você não pode sair desta sala',
  'You may not join this room': 'Você não pode entrar nesta sala',
  'Invalid id': 'Identificador inválido',
  // not found
  // campaigns
  'Invalid state': 'Estado inválido',
  'Invalid desired state': 'Estado desejado inválido',
  'Invalid campaign': 'Campanha inválida',
  // report filters (the range message is the spec's own Portuguese)
  'O intervalo máximo é de 31 dias.': 'O intervalo máximo é de 31 dias.',
  // channels
  'Invalid channel type': 'Tipo de canal inválido',
  'Invalid entry point': 'Ponto de entrada inválido',
  'Invalid entry point type': 'Tipo de ponto de entrada inválido',
  'Invalid channel': 'Canal inválido',
  'Connecting with Facebook is not configured on this server (META_APP_ID, META_APP_SECRET)':
    'A conexão com o Facebook não está configurada neste servidor (META_APP_ID, META_APP_SECRET)',
  'None of your Facebook pages has an Instagram professional account linked':
    'Nenhuma das suas páginas do Facebook tem uma conta profissional do Instagram vinculada',
  'Your Facebook account manages no page': 'Sua conta do Facebook não administra nenhuma página',
  "page_id is the page's numeric id": 'page_id é o identificador numérico da página',
  // conversations and messages
  'Message content is required': 'O conteúdo da mensagem é obrigatório',
  'contact.phone or contact.identifier is required': 'contact.phone ou contact.identifier é obrigatório',
  'message.content is required': 'message.content é obrigatório',
  'Must be a Unix time in seconds': 'Deve ser um horário Unix em segundos',
  // livechat
  'Your name must have at most 120 characters': 'Seu nome deve ter no máximo 120 caracteres',
  'Write a message': 'Escreva uma mensagem',
  'Unknown field': 'Campo desconhecido',
  // settings, menus, templates, files
  'Invalid report type': 'Tipo de relatório inválido',
  'Use the date format YYYY-MM-DD': 'Use o formato de data AAAA-MM-DD',
  'Minutes are required': 'Os minutos são obrigatórios',
  'Choose what to compare': 'Escolha o que comparar',
  'Choose how to compare': 'Escolha como comparar',
  'Choose an operation': 'Escolha uma operação',
  'Invalid status': 'Status inválido',
  'Invalid category': 'Categoria inválida',
  'Invalid country code': 'Código de país inválido',
  '80 characters maximum': 'No máximo 80 caracteres',
  'At least 1 day': 'Pelo menos 1 dia',
  'At most 3650 days': 'No máximo 3650 dias',
  'Change the password or the state, not both': 'Altere a senha ou o estado, não os dois',
  'Change the password, the state or the profile, one at a time': 'Altere a senha, o estado ou o perfil, um de cada vez',
  'Name must have at most 120 characters': 'O nome deve ter no máximo 120 caracteres',
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
  // E-mail channel settings (packages/channels/src/email/settings.ts)
  'smtp_host is required': 'smtp_host é obrigatório',
  'smtp_host must be a host name or an IP address': 'smtp_host deve ser um nome de host ou um endereço IP',
  'from_address must be an e-mail address': 'from_address deve ser um endereço de e-mail',
  // Starting a conversation by e-mail
  // The Meta app's webhook
};
