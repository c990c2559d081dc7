/** Portuguese phrases of the phonebook screens, keyed by the English source phrase (merged into ../pt.ts). */
export const ptPhonebook: Record<string, string> = {
  // phonebook
  Phonebook: 'Agenda',
  'Total: {{count}}': 'Total: {{count}}',
  Organization: 'Organização',
  'Should have at least 3 characters': 'Deve ter pelo menos 3 caracteres',
  'New contact': 'Novo contato',
  'A number of the default country, or with + and the country code': 'Um número do país padrão, ou com + e o código do país',
  'Número de telefone inválido': 'Número de telefone inválido',
  'Another contact already has this phone number': 'Outro contato já tem este número de telefone',
  'Contact successfully created': 'Contato criado com sucesso',

  // start conversation
  'Start conversation': 'Iniciar conversa',
  'Start conversation with {{name}}': 'Iniciar conversa com {{name}}',
  Contact: 'Contato',
  Channel: 'Canal',
  'Select a channel': 'Selecione um canal',
  'Channel is required': 'O canal é obrigatório',
  'There are no channels available to start a conversation': 'Não há canais disponíveis para iniciar uma conversa',
  Template: 'Template',
  'There are no approved templates, request registration to the admin': 'Não há templates aprovados, solicite o cadastro ao administrador',
  'Select a template': 'Selecione um template',
  'Parameter {{n}}': 'Parâmetro {{n}}',
  'Fill in every template parameter': 'Preencha todos os parâmetros do template',
  'Message preview': 'Prévia da mensagem',
  'Only approved templates can be used': 'Apenas templates aprovados podem ser usados',
  'Media or interactive templates cannot start a conversation': 'Templates de mídia ou interativos não podem iniciar uma conversa',
  'Initial message': 'Mensagem inicial',
  // server answers of POST /api/v1/contacts/{id}/conversations, shown by the shared handler
  'This contact already has an open conversation on this channel': 'Este contato já tem uma conversa aberta neste canal',
  'Conversations cannot be started on this channel': 'Não é possível iniciar conversas neste canal',
  'This channel is disabled': 'Este canal está desativado',
};
