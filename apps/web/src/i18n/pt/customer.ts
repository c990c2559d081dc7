/** Portuguese phrases of the customer screens, keyed by the English source phrase (merged into ../pt.ts). */
export const ptCustomer: Record<string, string> = {
  // panels
  'Customer details': 'Detalhes do cliente',
  'Edit customer details': 'Editar detalhes do cliente',
  'Customer journey': 'Jornada do cliente',
  'Show {{count}} more fields': 'Mostrar mais {{count}} campos',
  'Show fewer fields': 'Mostrar menos campos',
  'Contact successfully updated': 'Contato atualizado com sucesso',
  'Phone 1 cannot be edited': 'O telefone 1 não pode ser editado',

  // contact fields
  Organization: 'Organização',
  'Phone 1': 'Telefone 1',
  'Phone 2': 'Telefone 2',
  'Gov ID': 'CPF/CNPJ',
  'Customer ID': 'ID do cliente',
  'ZIP/Postal code': 'CEP',
  'Address line 1': 'Endereço linha 1',
  'Address line 2': 'Endereço linha 2',
  'City/Department': 'Cidade',
  'State/Province/Region': 'Estado',
  'Country/Region': 'País',
  Notes: 'Observações',

  // validation; phrases the spec gives in Portuguese are their own keys
  'Número de telefone inválido': 'Número de telefone inválido',
  'Campo obrigatório': 'Campo obrigatório',
  'Valor é obrigatório': 'Valor é obrigatório',

  // selected-text binding
  'Bind selected text to a field': 'Vincular o texto selecionado a um campo',
  'Discard selected text': 'Descartar o texto selecionado',
  'Choose a field': 'Escolha um campo',
  'How to bind': 'Como vincular',
  Replace: 'Substituir',
  Append: 'Acrescentar',
  Bind: 'Vincular',
  'Text bound successfully!': 'Texto vinculado com sucesso!',
  'Text selected in the chat: it can be bound to a field in the customer panel.':
    'Texto selecionado no chat: ele pode ser vinculado a um campo no painel do cliente.',

  // customer journey
  'Chat via {{channel}}': 'Conversa via {{channel}}',
  'Call: {{queue}}': 'Ligação: {{queue}}',
  'See the full history': 'Ver o histórico completo',
  'This customer has no previous sessions': 'Este cliente não tem atendimentos anteriores',

  // conversation fields
  'Edit conversation fields': 'Editar campos da conversa',
  'Add conversation field': 'Adicionar campo da conversa',
  'Add field': 'Adicionar campo',
  Field: 'Campo',
  'Select a field': 'Selecione um campo',
  Value: 'Valor',
  'Save {{field}}': 'Salvar {{field}}',
  'Every conversation field already has a value.': 'Todos os campos da conversa já estão preenchidos.',
  'Campo adicionado com sucesso': 'Campo adicionado com sucesso',
  'Informações editadas com sucesso': 'Informações editadas com sucesso',
  'No extra fields. Select a text in the chat or click on edit button to insert more fields.':
    'Nenhum campo extra. Selecione um texto no chat ou clique no botão de editar para inserir mais campos.',
  // Who ended a conversation, in words
  'Finished by the agent': 'Finalizada pelo agente',
  'Finished by a supervisor': 'Finalizada por um supervisor',
  'Closed by the system': 'Encerrada pelo sistema',
  'Ended by the bot': 'Encerrada pelo bot',
  'Closed by an automation': 'Encerrada por uma automação',
};
