import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import {
  acceptConversationOf,
  demo,
  demoApiChannel,
  FAKE_MICROPHONE_LAUNCH,
  finishAgentConversations,
  PLAIN_LAUNCH,
  sendContactMessage,
  signIn,
  type Listed,
} from './helpers';

// The composer's attachments and voice notes against the started stack.
// A fake microphone for the whole file (launch options are per browser, so not per test); the
// permission test starts a browser of its own without it.
test.use({ launchOptions: FAKE_MICROPHONE_LAUNCH });

const CHANNEL_TOKEN = 'demo-api-channel-token';

interface SentMessage {
  message: string;
  voice: boolean;
  author: string;
  annex: { content_type: string; original_filename: string; uri: string } | null;
}

/** A 2x2 PNG, built here: signature, IHDR, one zlib-compressed IDAT of grey pixels, IEND. */
function tinyPng(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const b of bytes) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(2, 0); // width
  ihdr.writeUInt32BE(2, 4); // height
  ihdr.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale, no interlace
  // zlib stored block: each row is a filter byte (0) and two pixels.
  const raw = Buffer.from([0, 0x80, 0x40, 0, 0x40, 0x80]);
  let a = 1;
  let b = 0;
  for (const byte of raw) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE(((b << 16) | a) >>> 0);
  const idat = Buffer.concat([Buffer.from([0x78, 0x01, 0x01, raw.length, 0, ~raw.length & 0xff, 0xff]), raw, adler]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', idat),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The demo API channel, read by the supervisor (who sees the whole workspace). */
async function demoChannel(browser: Browser): Promise<string> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, demo('supervisor'));
  await expect(page).not.toHaveURL(/\/login/);
  const channel = await demoApiChannel(page.request);
  await context.close();
  return channel;
}

/** A new contact writes; the agent takes that contact's conversation (others on the way go back). */
async function acceptNew(page: Page, request: APIRequestContext, channel: string): Promise<Listed> {
  const phone = `+55119${String(Date.now()).slice(-8)}`;
  await sendContactMessage(request, channel, CHANNEL_TOKEN, {
    contact: { phone, name: `Composer ${phone.slice(-4)}` },
    message: { id: `e2e-composer-${Date.now()}-${Math.random()}`, content: 'Pode me mandar o comprovante?' },
  });
  return acceptConversationOf(page, phone);
}

async function agentPage(browser: Browser, permissions: string[] = []): Promise<Page> {
  // baseURL spelled out: a browser launched by a test does not get the config's context options.
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL, locale: 'en-US', permissions });
  const page = await context.newPage();
  await signIn(page, demo('agent'));
  await expect(page.getByRole('listbox', { name: 'Conversations' })).toBeVisible();
  return page;
}

async function sentMessages(page: Page, conversation: string): Promise<SentMessage[]> {
  const res = await page.request.get(`/api/v1/conversations/${conversation}/messages`);
  return ((await res.json()) as { data: SentMessage[] }).data.filter((m) => m.author === 'USER');
}

const messages = (page: Page) => page.getByRole('log', { name: 'Messages' });
const composer = (page: Page) => page.getByRole('textbox', { name: /^(Message|Internal note)$/ });

async function attach(page: Page, files: { name: string; mimeType: string; buffer: Buffer }[]): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Attach files' }).click();
  await (await chooser).setFiles(files);
}

let channel = '';
test.beforeAll(async ({ browser }) => {
  channel = await demoChannel(browser);
});
// Specs after this one expect the agent to hold no chats: finish what each test accepted.
test.afterEach(({ playwright, baseURL }) => finishAgentConversations(playwright, baseURL));

test('an attached PNG uploads, takes a description and is sent as an image', async ({ browser, request }) => {
  const agent = await agentPage(browser);
  const conversation = await acceptNew(agent, request, channel);

  await attach(agent, [{ name: 'comprovante.png', mimeType: 'image/png', buffer: tinyPng() }]);
  const chip = agent.getByRole('listitem', { name: 'comprovante.png' });
  await expect(chip.getByText('Uploaded')).toBeVisible();
  // A 64 px thumbnail.
  const thumbnail = chip.locator('img');
  await expect(thumbnail).toHaveJSProperty('width', 64);
  await chip.getByRole('textbox', { name: 'Description of comprovante.png' }).fill('Segue o comprovante');
  await composer(agent).fill('Qualquer dúvida, estou aqui.');
  await composer(agent).press('Enter');

  // The file is its own message with its description; the typed text follows it.
  await expect(agent.getByRole('list', { name: 'Attachments' })).toHaveCount(0);
  const image = messages(agent).getByRole('img', { name: 'comprovante.png' });
  await expect(image).toBeVisible();
  await expect(image).toHaveJSProperty('naturalWidth', 2);
  await expect(messages(agent).getByText('Segue o comprovante')).toBeVisible();
  await expect(messages(agent).getByText('Qualquer dúvida, estou aqui.')).toBeVisible();
  await expect(composer(agent)).toHaveValue('');
  await expect(async () => {
    const sent = await sentMessages(agent, conversation.uuid);
    expect(sent.map((m) => [m.message, m.annex?.content_type ?? null])).toEqual([
      ['Segue o comprovante', 'image/png'],
      ['Qualquer dúvida, estou aqui.', null],
    ]);
  }).toPass();
  await agent.context().close();
});

test('a file over 5 MB and an unsupported type are refused before upload; nothing is sent', async ({ browser, request }) => {
  const agent = await agentPage(browser);
  const conversation = await acceptNew(agent, request, channel);
  const uploads: string[] = [];
  agent.on('request', (r) => r.url().includes('/api/v1/storage/files') && r.method() === 'POST' && uploads.push(r.url()));

  // 'Maximum file size exceeded (N MB)' with the 5 MB limit.
  await attach(agent, [{ name: 'grande.png', mimeType: 'image/png', buffer: Buffer.alloc(5 * 1024 * 1024 + 1) }]);
  await expect(agent.getByText('Maximum file size exceeded (5 MB)')).toBeVisible();
  // '{type} is not supported.'
  await attach(agent, [{ name: 'programa.exe', mimeType: 'application/x-msdownload', buffer: Buffer.from('MZ not really a program') }]);
  await expect(agent.getByText('application/x-msdownload is not supported.')).toBeVisible();

  await expect(agent.getByRole('list', { name: 'Attachments' })).toHaveCount(0);
  await expect(agent.getByRole('button', { name: 'Send' })).toBeDisabled();
  expect(uploads).toEqual([]);
  expect(await sentMessages(agent, conversation.uuid)).toEqual([]);
  await agent.context().close();
});

test('recording without microphone permission asks for it', async ({ playwright, request }) => {
  // Chromium's fake media UI accepts every prompt: this browser has none, and its context grants nothing.
  const plain = await playwright.chromium.launch(PLAIN_LAUNCH);
  const agent = await agentPage(plain);
  await acceptNew(agent, request, channel);

  await agent.getByRole('button', { name: 'Record voice' }).click();
  await expect(agent.getByText('Grant microphone permissions to record voice!')).toBeVisible();
  await expect(agent.getByRole('timer', { name: 'Recording time' })).toHaveCount(0);
  await expect(composer(agent)).toBeVisible();
  await plain.close();
});

test('with a microphone, a voice note records with its timer and is sent as a voice message', async ({ browser, request }) => {
  const agent = await agentPage(browser, ['microphone']);
  const conversation = await acceptNew(agent, request, channel);

  await agent.getByRole('button', { name: 'Record voice' }).click();
  const timer = agent.getByRole('timer', { name: 'Recording time' });
  await expect(timer).toHaveText('00:00');
  await expect(timer).toHaveText(/^00:0[1-9]$/, { timeout: 5_000 });
  await agent.getByRole('button', { name: 'Send recording' }).click();

  await expect(timer).toHaveCount(0);
  await expect(messages(agent).getByTestId('message').locator('audio')).toHaveCount(1);
  await expect(async () => {
    const sent = await sentMessages(agent, conversation.uuid);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ voice: true, annex: { content_type: 'audio/ogg' } });
  }).toPass();

  // Cancelling a recording sends nothing.
  await agent.getByRole('button', { name: 'Record voice' }).click();
  await expect(timer).toBeVisible();
  await agent.getByRole('button', { name: 'Cancel recording' }).click();
  await expect(timer).toHaveCount(0);
  expect(await sentMessages(agent, conversation.uuid)).toHaveLength(1);

  // Cancelled while the browser is still granting the microphone: it never starts recording, and
  // the microphone it got is let go.
  await agent.evaluate(() => {
    const original = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
    const slow = async (constraints?: MediaStreamConstraints) => {
      const stream = await original(constraints);
      (window as unknown as { lastStream: MediaStream }).lastStream = stream;
      await new Promise((resolve) => setTimeout(resolve, 1500));
      return stream;
    };
    navigator.mediaDevices.getUserMedia = slow;
  });
  await agent.getByRole('button', { name: 'Record voice' }).click();
  await agent.getByRole('button', { name: 'Cancel recording' }).click();
  await expect
    .poll(
      () =>
        agent.evaluate(
          () =>
            (window as unknown as { lastStream?: MediaStream }).lastStream?.getTracks().every((track) => track.readyState === 'ended') ??
            false,
        ),
      { timeout: 5000 },
    )
    .toBe(true);
  await expect(timer).toHaveCount(0);
  expect(await sentMessages(agent, conversation.uuid)).toHaveLength(1);
  await agent.context().close();
});

test('canned responses: "/" and a letter lists matches; the keyboard picks one, placeholders filled, its file attached', async ({
  browser,
  request,
}) => {
  const agent = await agentPage(browser);
  const conversation = await acceptNew(agent, request, channel);
  const me = ((await (await agent.request.get('/api/v1/users/me')).json()) as { data: { username: string; workspace: { name: string } } })
    .data;
  // The demo seed has no canned responses: the channel's list is served here; its file is uploaded for real.
  const upload = await agent.request.post('/api/v1/storage/files', {
    multipart: { file: { name: 'tabela.png', mimeType: 'image/png', buffer: tinyPng() } },
  });
  expect(upload.status()).toBe(201);
  const stored = ((await upload.json()) as { data: { data: { uuid: string; uri: string } } }).data.data;
  const canned = (keyword: string, message: string, extra: object = {}) => ({
    uuid: crypto.randomUUID(),
    keyword,
    message,
    category: null,
    annex: null,
    sector_uuids: [],
    ...extra,
  });
  let listed = 0;
  await agent.route('**/api/v1/channels/*/canned_responses**', (route) => {
    listed++;
    return route.fulfill({
      json: {
        data: [
          canned('saudacao', 'Olá! Sou {{user_name}}, da {{workspace_name}}.', {
            category: { uuid: crypto.randomUUID(), name: 'Abertura', description: null },
          }),
          canned('sabado', 'Atendemos aos sábados das 8h às 12h.'),
          canned('precos', 'Aqui está a tabela de preços.', {
            annex: { uuid: stored.uuid, original_filename: 'tabela.png', uri: stored.uri },
          }),
        ],
      },
    });
  });
  const list = agent.getByRole('listbox', { name: 'Canned responses' });

  // Prefix match on the keyword; ArrowDown and Enter pick instead of sending.
  await composer(agent).fill('/s');
  await expect(list.getByRole('option')).toHaveCount(2);
  await composer(agent).press('ArrowDown');
  await composer(agent).press('Enter');
  await expect(composer(agent)).toHaveValue('Atendemos aos sábados das 8h às 12h.');
  await expect(list).toBeHidden();

  // Escape closes the list and keeps the text.
  await composer(agent).fill('/sa');
  await expect(list.getByRole('option')).toHaveCount(2);
  await composer(agent).press('Escape');
  await expect(list).toBeHidden();
  await expect(composer(agent)).toHaveValue('/sa');

  // Accent- and case-insensitive match on the category; Tab picks; placeholders get the user's and workspace's names.
  await composer(agent).fill('/ABÉ');
  await expect(list.getByRole('option')).toHaveCount(1);
  await composer(agent).press('Tab');
  await expect(composer(agent)).toHaveValue(`Olá! Sou ${me.username}, da ${me.workspace.name}.`);

  // A canned response with a file attaches it; sending sends the text as the file's caption.
  await composer(agent).fill('/prec');
  await composer(agent).press('Enter');
  await expect(composer(agent)).toHaveValue('Aqui está a tabela de preços.');
  await expect(agent.getByRole('listitem', { name: 'tabela.png' }).getByText('Uploaded')).toBeVisible();
  await composer(agent).press('Enter');
  await expect(messages(agent).getByRole('img', { name: 'tabela.png' })).toBeVisible();
  await expect(async () => {
    const sent = await sentMessages(agent, conversation.uuid);
    expect(sent.map((m) => [m.message, m.annex?.original_filename ?? null])).toEqual([['Aqui está a tabela de preços.', 'tabela.png']]);
  }).toPass();
  // Fetched once for the channel and sector, then read from the cache.
  expect(listed).toBe(1);
  await agent.context().close();
});

test('dropped and pasted files attach; pasted markdown images are fetched and re-uploaded, a failing one says why', async ({
  browser,
  request,
}) => {
  const agent = await agentPage(browser);
  const conversation = await acceptNew(agent, request, channel);
  const png = [...tinyPng()];
  // Images "elsewhere on the web", one there and one missing: a real server on this machine (which the
  // stack's OUTBOUND_ALLOW_HOSTS lets the api reach), since the api downloads them, not the browser.
  const visits: string[] = [];
  const images = createServer((req, res) => {
    visits.push(req.headers['user-agent'] ?? '');
    if (req.url === '/img/logo.png') res.writeHead(200, { 'content-type': 'image/png' }).end(tinyPng());
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
  const site = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;

  // Dropped on the composer.
  await composer(agent).evaluate((el, bytes) => {
    const data = new DataTransfer();
    data.items.add(new File([new Uint8Array(bytes)], 'arrastada.png', { type: 'image/png' }));
    for (const type of ['dragenter', 'dragover', 'drop'])
      el.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));
  }, png);
  await expect(agent.getByRole('listitem', { name: 'arrastada.png' }).getByText('Uploaded')).toBeVisible();

  // Pasted text with markdown images: the text stays, the images become attachments.
  await composer(agent).fill('Veja: ');
  await composer(agent).evaluate((el: HTMLTextAreaElement, site) => {
    el.setSelectionRange(el.value.length, el.value.length);
    const data = new DataTransfer();
    data.setData('text/plain', `nosso logo ![logo](${site}/img/logo.png) e ![x](${site}/sumiu.png)`);
    el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, site);
  await expect(composer(agent)).toHaveValue('Veja: nosso logo e');
  await expect(agent.getByRole('listitem', { name: 'logo.png' }).getByText('Uploaded')).toBeVisible();
  // The image that could not be fetched.
  await expect(
    agent.getByText('Não foi possível exibir imagem devido à URL inválida ou à restrições no servidor de origem.'),
  ).toBeVisible();
  await expect(agent.getByRole('listitem')).toHaveCount(2);
  // The server fetched both (no browser among the visitors), and the app's pages may
  // connect to no other site: the CSP stops the page's own fetch of the same image.
  expect(visits).toHaveLength(2);
  expect(visits.filter((agentName) => /Chrom|Mozilla/.test(agentName))).toEqual([]);
  const direct = await agent.evaluate(
    (url) =>
      fetch(url, { mode: 'no-cors' }).then(
        () => 'fetched',
        () => 'blocked',
      ),
    `${site}/img/logo.png`,
  );
  expect(direct).toBe('blocked');
  expect(visits).toHaveLength(2);

  // A chip removed is not sent; the rest go, the text as the caption of the last file.
  await agent.getByRole('button', { name: 'Remove arrastada.png' }).click();
  await expect(agent.getByRole('listitem', { name: 'arrastada.png' })).toHaveCount(0);
  await agent.getByRole('button', { name: 'Send' }).click();
  await expect(messages(agent).getByRole('img', { name: 'logo.png' })).toBeVisible();
  await expect(async () => {
    const sent = await sentMessages(agent, conversation.uuid);
    expect(sent.map((m) => [m.message, m.annex?.original_filename ?? null])).toEqual([['Veja: nosso logo e', 'logo.png']]);
  }).toPass();
  await agent.context().close();
  await new Promise((resolve) => images.close(resolve));
});
