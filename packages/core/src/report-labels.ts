/**
 * The admin reports' column labels and the few English values they write (weekdays, outcomes, yes/no),
 * in Portuguese. One dictionary for the screen's table headers and the CSV / Excel
 * headers, so that the file reads as the screen does. English is the label itself.
 */
export const REPORT_LABELS_PT: Readonly<Record<string, string>> = {
  Agent: 'Agente',
  'Answered sessions': 'Atendimentos atendidos',
  'Closed sessions': 'Atendimentos finalizados',
  'Average first response time': 'Tempo médio de primeira resposta',
  'Average session time': 'Tempo médio de atendimento',
  'Messages sent': 'Mensagens enviadas',
  'New sessions': 'Novos atendimentos',
  Answered: 'Atendidos',
  'Closed without answer': 'Finalizados sem resposta',
  'Answer rate': 'Taxa de atendimento',
  Day: 'Dia',
  Hour: 'Hora',
  Weekday: 'Dia da semana',
  Sessions: 'Atendimentos',
  Share: 'Participação',
  'Average wait': 'Espera média',
  'Longest wait': 'Maior espera',
  Date: 'Data',
  User: 'Usuário',
  Email: 'E-mail',
  Event: 'Evento',
  'IP address': 'Endereço IP',
  Ticket: 'Ticket',
  Contact: 'Contato',
  Phone: 'Telefone',
  Sector: 'Setor',
  Channel: 'Canal',
  Start: 'Início',
  End: 'Fim',
  Duration: 'Duração',
  'Ended by': 'Finalizado por',
  'Finish reason': 'Motivo de finalização',
  Conversation: 'Conversa',
  Menu: 'Menu',
  Answer: 'Resposta',
  Outcome: 'Resultado',
  Conversations: 'Conversas',
  // surveys report
  Survey: 'Pesquisa',
  Question: 'Pergunta',
  Option: 'Opção',
  Answers: 'Respostas',
  Sent: 'Enviadas',
  'Waiting for an answer': 'Aguardando resposta',
  'No answer': 'Sem resposta',
  'Average score': 'Nota média',
  Score: 'Nota',
  Repeated: 'Repetida',
  'Repeated answers': 'Respostas repetidas',
  'Answered at': 'Respondida em',
  // values
  Monday: 'Segunda-feira',
  Tuesday: 'Terça-feira',
  Wednesday: 'Quarta-feira',
  Thursday: 'Quinta-feira',
  Friday: 'Sexta-feira',
  Saturday: 'Sábado',
  Sunday: 'Domingo',
  Ended: 'Encerrada',
  'Sent to the queue': 'Enviada para a fila',
  'Still in the flow': 'Ainda no fluxo',
  Yes: 'Sim',
  No: 'Não',
};

export type ReportLanguage = 'en' | 'pt';

/** A report label or value in `language` (a phrase without a translation stays English). */
export const reportLabel = (label: string, language: ReportLanguage): string =>
  language === 'pt' ? (REPORT_LABELS_PT[label] ?? label) : label;

/**
 * The requester's language from an Accept-Language header, as the web app picks its own (
 * Portuguese when the browser's language is Portuguese): the first, preferred tag decides.
 */
export function reportLanguage(acceptLanguage: string | undefined): ReportLanguage {
  const first = String(acceptLanguage ?? '').split(',')[0] ?? '';
  return /^\s*pt\b/i.test(first) ? 'pt' : 'en';
}
