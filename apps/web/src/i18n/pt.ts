/**
 * Portuguese dictionary keyed by the English source phrase. Phrases the spec gives in
 * Portuguese are their own keys and show as given in both languages. `pnpm --filter @atende/web
 * typecheck` fails when a translated phrase has no entry here (scripts/check-i18n.ts).
 */
import { ptComposer } from './pt/composer';
import { ptPeople } from './pt/people';
import { ptCustomer } from './pt/customer';
import { ptPhonebook } from './pt/phonebook';
import { ptTemplates } from './pt/templates';
import { ptCampaigns } from './pt/campaigns';
import { ptViews } from './pt/views';
import { ptDashboard } from './pt/dashboard';
import { ptSurveys } from './pt/surveys';
import { ptMenus } from './pt/menus';
import { ptIntegrations } from './pt/integrations';
import { ptAutomations } from './pt/automations';
import { ptReports } from './pt/reports';
import { ptBots } from './pt/bots';
import { ptWorkstation } from './pt/workstation';
import { ptSettings } from './pt/settings';
import { ptLivechat } from './pt/livechat';
import { ptServer } from './pt/server';
import { ptErrors } from './pt/errors';
import { ERROR_TEXTS } from '../api/errors';
import type { ErrorCode } from '@atende/contract';
import { ptChannelSetup } from './pt/channel-setup';

const ptShared: Record<string, string> = {
  // brand and shared states
  Atende: 'Atende',
  'Loading...': 'Carregando...',
  'No data found': 'Nenhum dado encontrado',
  'Something went wrong': 'Algo deu errado',
  'The service is unavailable for a moment; try again shortly': 'O serviço está indisponível por um momento; tente novamente em instantes',
  'This request comes from a site that is not allowed to act on this account':
    'Esta requisição vem de um site que não tem permissão para agir nesta conta',
  'The data could not be loaded.': 'Não foi possível carregar os dados.',
  'Try again': 'Tentar novamente',
  Reload: 'Recarregar',
  'Something unexpected happened. Reload the page without cache (Ctrl+Shift+R) or contact support.':
    'Algo inesperado aconteceu. Recarregue a página sem cache (Ctrl+Shift+R) ou contate o suporte.',
  Back: 'Voltar',
  Yes: 'Sim',
  No: 'Não',
  Save: 'Salvar',
  Cancel: 'Cancelar',
  Close: 'Fechar',
  Actions: 'Ações',
  Name: 'Nome',
  Email: 'E-mail',
  Time: 'Hora',
  Date: 'Data',

  // session
  'Sign in': 'Entrar',
  'Sign in to Atende': 'Entrar no Atende',
  Password: 'Senha',
  'Show or hide the password': 'Mostrar ou ocultar a senha',
  Required: 'Obrigatório',
  'Please insert a valid e-mail': 'Insira um e-mail válido',
  'Invalid email or password': 'E-mail ou senha inválidos',
  'This login code is invalid or has expired': 'Este código de login é inválido ou expirou',
  'Too many sign-in attempts, try again in a few minutes': 'Muitas tentativas de login, tente novamente em alguns minutos',
  'Forgot password?': 'Esqueceu a senha?',
  'Forgot password': 'Esqueci a senha',
  'Enter your e-mail. If it belongs to an account, we will send it a 6-digit code.':
    'Informe seu e-mail. Se ele for de uma conta, enviaremos a ele um código de 6 dígitos.',
  'Send code': 'Enviar código',
  'If {{email}} belongs to an account, a 6-digit code was sent to it. It is valid for {{minutes}} minutes.':
    'Se {{email}} for de uma conta, um código de 6 dígitos foi enviado a ele. Ele vale por {{minutes}} minutos.',
  Code: 'Código',
  'Confirm the new password': 'Confirme a nova senha',
  'Set password and sign in': 'Definir a senha e entrar',
  'Send a new code': 'Enviar um novo código',
  'Back to sign in': 'Voltar para o login',
  'The maximum number of users signed in was reached. Try again later.':
    'O número máximo de usuários conectados foi atingido. Tente novamente mais tarde.',
  'You were disconnected by a supervisor': 'Você foi desconectado por um supervisor',
  'You were disconnected': 'Você foi desconectado',
  Logout: 'Sair',

  // The error catalogue
  'Credenciais inválidas': 'Credenciais inválidas',
  'Você não tem permissão para acessar essa página': 'Você não tem permissão para acessar essa página',
  'Funcionalidade não ativada': 'Funcionalidade não ativada',
  'Missing parameters': 'Parâmetros ausentes',
  'Invalid credentials': 'Credenciais inválidas',
  'Email already being used': 'E-mail já está sendo usado',
  'There is already a bot with this name': 'Já existe um bot com este nome',
  'Some channels depend on this bot': 'Alguns canais dependem deste bot',
  'File parameter must be a csv file': 'O arquivo deve ser um CSV',
  'Invalid file! It must have at least name and phone': 'Arquivo inválido! Ele deve ter pelo menos nome e telefone',
  'Recipient is not a valid WhatsApp user': 'O destinatário não é um usuário válido do WhatsApp',
  'Fail to create conversation': 'Falha ao criar conversa',
  'You do not have permission to do this': 'Você não tem permissão para fazer isso',
  'Feature not enabled for this tenant': 'Funcionalidade não ativada',

  // connection states
  Connected: 'Conectado',
  'Trying to reconnect': 'Tentando reconectar',
  'Try to reconnect': 'Tentar reconectar',
  'Falha na conexão': 'Falha na conexão',

  // user menu, profile, QR login
  'User menu': 'Menu do usuário',
  Profile: 'Perfil',
  'Login via app': 'Login via app',
  'QR code to sign in with the app': 'Código QR para entrar pelo app',
  'Scan this code with the Atende app to sign in. It refreshes every 15 seconds.':
    'Leia este código com o app do Atende para entrar. Ele é atualizado a cada 15 segundos.',
  'First steps': 'Primeiros passos',
  'Not completed': 'Não concluído',
  'Agent panel': 'Painel do agente',
  'Expand the menu': 'Expandir o menu',
  'Collapse the menu': 'Recolher o menu',
  'Supervisor panel': 'Painel do supervisor',
  'Current password': 'Senha atual',
  'New password': 'Nova senha',
  'Confirm new password': 'Confirme a nova senha',
  'The passwords must match': 'As senhas devem ser iguais',
  'Wrong current password': 'Senha atual incorreta',
  'Password must have at least 8 characters': 'A senha deve ter pelo menos 8 caracteres',
  'Password must have at most 256 characters': 'A senha deve ter no máximo 256 caracteres',
  'Password must contain at least one number': 'A senha deve conter pelo menos um número',
  'Password must contain letters': 'A senha deve conter letras',
  'Password changed successfully': 'Senha alterada com sucesso',

  // roles
  Admin: 'Administrador',
  Owner: 'Proprietário',
  Manager: 'Gerente',
  'Campaign Manager': 'Gerente de campanhas',
  Supervisor: 'Supervisor',
  Agent: 'Agente',
  'Tenant Admin': 'Administrador de tenants',

  // agent panel
  'Active chats': 'Atendimentos ativos',
  '{{count}} active chats': '{{count}} atendimentos ativos',
  History: 'Histórico',
  Campaigns: 'Campanhas',
  'External system': 'Sistema externo',
  'Logged in for': 'Logado há',
  'Start messaging! Select a chat and talk to the customers': 'Comece a conversar! Selecione um atendimento e fale com os clientes',
  "You don't have finished chats yet": 'Você ainda não tem atendimentos finalizados',
  'Chat history': 'Histórico de atendimentos',
  'Start-End': 'Início-Fim',
  Duration: 'Duração',
  Protocol: 'Protocolo',
  Customer: 'Cliente',
  Phone: 'Telefone',
  'Ended by': 'Finalizado por',
  'End reason': 'Motivo de finalização',
  Messages: 'Mensagens',
  'Chat ID': 'ID do atendimento',
  System: 'Sistema',
  Unknown: 'Desconhecido',
  'Rows per page': 'Linhas por página',
  Pages: 'Páginas',
  // pauses
  'Paused: {{description}}': 'Em pausa: {{description}}',
  'You are online again': 'Você está online novamente',
  Unpause: 'Sair da pausa',
  'You have active chats': 'Você tem atendimentos ativos',
  'Chats returned to the queue that nobody took meanwhile come back to you when you end the pause.':
    'As conversas devolvidas à fila que ninguém pegou enquanto isso voltam para você quando terminar a pausa.',
  'Keep them waiting for your return, or return them to the queue for other agents?':
    'Mantê-los aguardando seu retorno ou devolvê-los à fila para outros agentes?',
  Keep: 'Manter',
  'Return to queue': 'Devolver à fila',

  // admin area
  Dashboard: 'Dashboard',
  'Omnichannel panel': 'Painel omnichannel',
  beta: 'beta',
  BETA: 'BETA',
  Reports: 'Relatórios',
  Contacts: 'Contatos',
  Settings: 'Configurações',
  Tenants: 'Tenants',
  Agents: 'Agentes',
  'Agent availability': 'Disponibilidade dos agentes',
  State: 'Estado',
  Online: 'Online',
  Paused: 'Pausado',
  Offline: 'Offline',
  'Logged in': 'Logado',
  'Logged in since': 'Logado desde',
  Pause: 'Pausa',
  Disconnect: 'Desconectar',
  'Disconnect {{name}}': 'Desconectar {{name}}',
  'Disconnect {{name}}?': 'Desconectar {{name}}?',
  'Their session ends now and their active chats return to the queue.':
    'A sessão termina agora e os atendimentos ativos voltam para a fila.',
  '{{name}} was disconnected': '{{name}} foi desconectado',
  'No agents found': 'Nenhum agente encontrado',
  // reports
  'Agents productivity': 'Produtividade dos agentes',
  'Session rate': 'Taxa de atendimentos',
  'Session rate by agent': 'Taxa de atendimentos por agente',
  'Session volume trends': 'Tendências de volume de atendimentos',
  'Session metrics': 'Métricas de atendimentos',
  Bots: 'Bots',
  Surveys: 'Pesquisas',
  'Login history': 'Histórico de login',
  // settings
  Automations: 'Automações',
  'System integrations': 'Integrações de sistemas',
  'Opening hours': 'Horário de atendimento',
  'Automated menu': 'Menu automático',
  Pauses: 'Pausas',
  'Canned responses': 'Respostas rápidas',
  Workspace: 'Workspace',
  'Bot editor': 'Editor de bot',
  'Conversation fields': 'Campos de conversa',
  Channels: 'Canais',
  'Conversation reasons': 'Motivos de conversa',
  // campaigns
  Subscribers: 'Assinantes',
  'DND list': 'Lista de não perturbe',
  'WhatsApp templates': 'Templates do WhatsApp',
  'No templates found': 'Nenhum template encontrado',
  // first steps
  'Welcome to Atende! Set up sectors, pauses, channels and your team, then mark this as completed.':
    'Bem-vindo ao Atende! Configure setores, pausas, canais e sua equipe e depois marque como concluído.',
  'Create the sectors (queues) of your team': 'Crie os setores (filas) da sua equipe',
  'Register the pauses your agents may take': 'Cadastre as pausas que seus agentes podem fazer',
  'Connect your channels': 'Conecte seus canais',
  'Invite your agents and supervisors': 'Convide seus agentes e supervisores',
  'Mark as completed': 'Marcar como concluído',
  'First steps completed': 'Primeiros passos concluídos',
  // tenants
  Features: 'Funcionalidades',
  'Features on': 'Funcionalidades ativas',
  'Default country code': 'Código de país padrão',
  'Feature updated': 'Funcionalidade atualizada',
  'Outbound campaigns': 'Campanhas ativas',
  'Archived conversations': 'Conversas arquivadas',
  'Start new conversation': 'Iniciar nova conversa',
  'Internal notes': 'Notas internas',
  'Contact journey': 'Jornada do contato',
  'Message reply': 'Responder mensagem',
  'WhatsApp template management': 'Gestão de templates do WhatsApp',
  'Login via app (QR code)': 'Login via app (código QR)',
  'Omnichannel dashboard': 'Dashboard omnichannel',
  'Session metrics report': 'Relatório de métricas de atendimentos',
  'Bots report': 'Relatório de bots',
  'Surveys report': 'Relatório de pesquisas',
};

/** The error catalogue's English phrases with their Portuguese, both kept by code. */
const ptErrorPhrases: Record<string, string> = Object.fromEntries(
  (Object.keys(ERROR_TEXTS) as ErrorCode[]).map((code) => [ERROR_TEXTS[code], ptErrors[code]]),
);

/** Each screen family keeps its phrases in its own file under ./pt/. */
export const pt: Record<string, string> = {
  ...ptShared,
  ...ptWorkstation,
  ...ptComposer,
  ...ptCustomer,
  ...ptPhonebook,
  ...ptViews,
  ...ptTemplates,
  ...ptCampaigns,
  ...ptSettings,
  ...ptPeople,
  ...ptDashboard,
  ...ptSurveys,
  ...ptMenus,
  ...ptIntegrations,
  ...ptAutomations,
  ...ptReports,
  ...ptBots,
  ...ptLivechat,
  ...ptChannelSetup,
  ...ptServer,
  ...ptErrorPhrases,
};
