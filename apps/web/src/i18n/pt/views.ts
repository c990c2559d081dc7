/** Portuguese phrases of the conversation views opened by URL, keyed by the English source phrase (merged into ../pt.ts). */
export const ptViews: Record<string, string> = {
  Bot: 'Bot',
  Answered: 'Em atendimento',
  'Outbound started': 'Ativo iniciado',
  Closing: 'Finalizando',
  Closed: 'Finalizada',
  'Finished conversation successfully': 'Conversa finalizada com sucesso',
  'This conversation is invalid or has ended': 'Esta conversa é inválida ou foi encerrada',
  'Agent: {{name}}': 'Agente: {{name}}',
  Live: 'Ao vivo',
  'Finish as supervisor': 'Finalizar como supervisor',
  Queue: 'Fila',
  Recording: 'Gravação',
  'Open the chat history of {{name}}': 'Abrir o histórico do atendimento de {{name}}',
  // conversation list keyset paging (invalid_cursor)
  'This page link is no longer valid: reload the list from its first page':
    'Este link de página não é mais válido: recarregue a lista a partir da primeira página',
  'Use either cursor or _offset, not both': 'Use cursor ou _offset, não ambos',
  // supervisor live view
  'Write an internal note for the agent': 'Escreva uma nota interna para o agente',
  'Add note': 'Adicionar nota',
  'Internal note added': 'Nota interna adicionada',
};
