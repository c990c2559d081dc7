/** The /messenger-setup and /instagram-setup screens and their refusals. */
export const ptChannelSetup: Record<string, string> = {
  'Connect a Facebook page': 'Conectar uma página do Facebook',
  'Log in with Facebook and choose the page whose Messenger conversations Atende answers.':
    'Entre com o Facebook e escolha a página cujas conversas do Messenger o Atende vai atender.',
  'Choose the page': 'Escolha a página',
  'Connect an Instagram account': 'Conectar uma conta do Instagram',
  'Log in with Facebook and choose the page your Instagram professional account is linked to.':
    'Entre com o Facebook e escolha a página à qual sua conta profissional do Instagram está vinculada.',
  'Choose the Instagram account': 'Escolha a conta do Instagram',
  'Back to channels': 'Voltar aos canais',
  'The Facebook login was cancelled: nothing was connected.': 'O login do Facebook foi cancelado: nada foi conectado.',
  'Connect with Facebook': 'Conectar com o Facebook',
  'Log in again': 'Entrar novamente',
  'The channel {{name}} is connected.': 'O canal {{name}} está conectado.',
  'The channel {{name}} was updated with the new connection.': 'O canal {{name}} foi atualizado com a nova conexão.',
  'Connected to the channel {{name}}: connecting again updates it': 'Conectada ao canal {{name}}: conectar de novo o atualiza',
  Connect: 'Conectar',
  "Log in with Facebook and choose the page: no token to copy. Or fill in the page's details below.":
    'Entre com o Facebook e escolha a página: nenhum token para copiar. Ou preencha os dados da página abaixo.',
  // refusals (api/errors.ts ERROR_TEXTS)
  'Connecting with Facebook is not set up on this server: ask its operator for the Meta app settings':
    'A conexão com o Facebook não está configurada neste servidor: peça ao operador as configurações do app da Meta',
  'This Facebook login is invalid or has expired; connect again': 'Este login do Facebook é inválido ou expirou; conecte novamente',
  'Facebook refused the login (it may have expired); log in again': 'O Facebook recusou o login (ele pode ter expirado); entre novamente',
  'No page to connect: your Facebook login manages no page (for Instagram, none with a linked Instagram professional account)':
    'Nenhuma página para conectar: seu login do Facebook não administra nenhuma página (para o Instagram, nenhuma com conta profissional do Instagram vinculada)',
  'This page is already connected to another account': 'Esta página já está conectada a outra conta',
  'This page, account, number or bot is already connected to another channel':
    'Esta página, conta, número ou bot já está conectado a outro canal',
};
