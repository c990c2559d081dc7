/** Portuguese phrases of the composer screens, keyed by the English source phrase (merged into ../pt.ts). */
export const ptComposer: Record<string, string> = {
  // attachments
  'Attach files': 'Anexar arquivos',
  'Drop files to attach': 'Solte os arquivos para anexar',
  Attachments: 'Anexos',
  'Remove {{name}}': 'Remover {{name}}',
  Description: 'Descrição',
  'Description of {{name}}': 'Descrição de {{name}}',
  'Fetching image': 'Buscando imagem',
  'Uploading {{name}}': 'Enviando {{name}}',
  Uploaded: 'Enviado',
  'Upload failed': 'Falha no envio',
  'Maximum file size exceeded ({{size}} MB)': 'Tamanho máximo de arquivo excedido ({{size}} MB)',
  '{{type}} is not supported.': '{{type}} não é suportado.',
  // what the conversation's channel cannot carry
  'This channel does not take {{type}} files': 'Este canal não aceita arquivos {{type}}',
  'This channel takes files of at most {{size}} MB': 'Este canal aceita arquivos de no máximo {{size}} MB',
  'This channel takes at most {{max}} characters here': 'Este canal aceita no máximo {{max}} caracteres aqui',
  'Attachment descriptions take at most {{max}} characters on this channel':
    'As descrições de anexos aceitam no máximo {{max}} caracteres neste canal',
  '{{n}} characters left': 'Restam {{n}} caracteres',
  // SMS: segments of the text, and no files without MMS
  '1 segment': '1 segmento',
  '{{n}} segments': '{{n}} segmentos',
  'special characters: 70 per segment': 'caracteres especiais: 70 por segmento',
  'This channel takes no attachments (MMS is off)': 'Este canal não aceita anexos (MMS desligado)',
  'Não foi possível exibir imagem devido à URL inválida ou à restrições no servidor de origem.':
    'Não foi possível exibir imagem devido à URL inválida ou à restrições no servidor de origem.',
  // voice recording
  'Record voice': 'Gravar áudio',
  'This channel does not take voice messages': 'Este canal não aceita mensagens de voz',
  'Grant microphone permissions to record voice!': 'Conceda permissão ao microfone para gravar áudio!',
  Recording: 'Gravando',
  'Recording time': 'Tempo de gravação',
  'Cancel recording': 'Cancelar gravação',
  'Send recording': 'Enviar gravação',
  'Sending voice message': 'Enviando mensagem de voz',
};
