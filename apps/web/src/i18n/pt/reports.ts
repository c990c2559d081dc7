/** Portuguese phrases of the admin reports (screen texts and the column labels the api sends), keyed by the English source phrase (merged into ../pt.ts). */
export const ptReports: Record<string, string> = {
  'Report type': 'Tipo de relatório',
  Generate: 'Gerar',
  'Download {{format}}': 'Baixar {{format}}',
  'Choose the filters and generate the report.': 'Escolha os filtros e gere o relatório.',
  'Fix all the errors before generating this report': 'Corrija todos os erros antes de gerar este relatório',
  'Fix all the errors before downloading this report': 'Corrija todos os erros antes de baixar este relatório',
  'Only the first 500 rows are shown; the downloads have them all.': 'Só as primeiras 500 linhas são mostradas; os downloads trazem todas.',
  'By agent': 'Por agente',
  'By weekday': 'Por dia da semana',
  'By hour': 'Por hora',
  // The column headers and translated values come from @atende/core REPORT_LABELS_PT (shared with the downloads).
  'By survey': 'Por pesquisa',
  'By answer': 'Por resposta',
  'By day': 'Por dia',
  Survey: 'Pesquisa',
  'Conversations through the bots': 'Conversas pelos bots',
  'Bot or menu': 'Bot ou menu',
};
