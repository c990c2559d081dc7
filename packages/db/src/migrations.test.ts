import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { createDb, type Db } from './client';
import { runMigrations } from './migrations';
import { scoped } from './scoped';

// Migrations are hand-written SQL mirroring schema.prisma; this test applies
// them to an empty database and writes and reads every model with every field set, so drift fails.
const admin = 'postgresql://postgres@127.0.0.1:5432/postgres';
const name = `atende_drift_${randomBytes(5).toString('hex')}`;
const url = `postgresql://postgres@127.0.0.1:5432/${name}`;
let db: Db;

beforeAll(async () => {
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  await c.query(`CREATE DATABASE "${name}"`);
  await c.end();
});
afterAll(async () => {
  await db?.$disconnect();
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await c.end();
});

describe('migrations', () => {
  it('apply to an empty database, then report nothing left to apply', async () => {
    const first = await runMigrations(url);
    expect(first.applied.length).toBeGreaterThan(0);
    const second = await runMigrations(url);
    expect(second.applied).toEqual([]);
    expect(second.alreadyApplied).toEqual(first.applied);
  });

  it('match schema.prisma: every model written and read back with every field set', async () => {
    db = createDb(url);
    const now = new Date('2026-01-02T03:04:05.678Z');
    const tenant = await db.tenant.create({
      data: { name: 'T', config: { features: { a: true } }, isDemo: true },
    });
    const ws = await db.workspace.create({
      data: {
        tenantId: tenant.id,
        name: 'W',
        maxConversationPerUser: 3,
        conversationDeliveryMode: 'fifo',
        archivedConversationBehaviorOnNewMessages: 'keep',
        integrations: { droz: { token: 'x' } },
      },
    });
    const pause = await db.pause.create({ data: { tenantId: tenant.id, workspaceId: ws.id, description: 'Lunch', deletedAt: now } });
    const user = await db.user.create({
      data: {
        tenantId: tenant.id,
        workspaceId: ws.id,
        username: 'U',
        email: 'u@x.dev',
        passwordHash: 'h',
        roles: ['agent', 'supervisor'],
        isLogged: true,
        loggedOffBy: 'self',
        state: 'paused',
        currentPauseId: pause.id,
        loggedAt: now,
        lastAssignedAt: now,
        deletedAt: now,
      },
    });
    const session = await db.userSession.create({
      data: {
        tenantId: tenant.id,
        userId: user.id,
        roles: ['admin'],
        expiresAt: now,
        revokedAt: now,
        revokedReason: 'logout',
        ip: '1.2.3.4',
        userAgent: 'ua',
      },
    });
    const sector = await db.sector.create({
      data: {
        tenantId: tenant.id,
        workspaceId: ws.id,
        name: 'S',
        slaFirstResponseSeconds: 60,
        slaSessionSeconds: 600,
        ticketAnnounce: true,
        ticketMessage: 'm',
        deletedAt: now,
      },
    });
    const hours = await db.openingHours.create({
      data: {
        tenantId: tenant.id,
        workspaceId: ws.id,
        enabled: true,
        timezone: 'America/Sao_Paulo',
        days: [{ weekday: 'monday', ranges: [{ start: '08:00', end: '18:00' }] }],
        outOfHoursMessage: 'Closed',
        createdAt: now,
      },
    });
    const login = await db.loginHistory.create({
      data: { tenantId: tenant.id, userId: user.id, event: 'login', ip: '::1', userAgent: 'ua', at: now },
    });

    expect(await db.tenant.findUniqueOrThrow({ where: { id: tenant.id } })).toMatchObject({
      config: { features: { a: true } },
      isDemo: true,
    });
    expect(await db.workspace.findUniqueOrThrow({ where: { id: ws.id } })).toMatchObject({
      conversationDeliveryMode: 'fifo',
      maxConversationPerUser: 3,
      integrations: { droz: { token: 'x' } },
    });
    expect(await db.user.findUniqueOrThrow({ where: { id: user.id } })).toMatchObject({
      roles: ['agent', 'supervisor'],
      state: 'paused',
      currentPauseId: pause.id,
      loggedAt: now,
      lastAssignedAt: now,
      deletedAt: now,
      loggedOffBy: 'self',
    });
    expect(await db.userSession.findUniqueOrThrow({ where: { id: session.id } })).toMatchObject({
      roles: ['admin'],
      revokedReason: 'logout',
      ip: '1.2.3.4',
      expiresAt: now,
    });
    expect(await db.pause.findUniqueOrThrow({ where: { id: pause.id } })).toMatchObject({ description: 'Lunch', deletedAt: now });
    expect(await db.sector.findUniqueOrThrow({ where: { id: sector.id } })).toMatchObject({
      slaFirstResponseSeconds: 60,
      ticketMessage: 'm',
    });
    expect(await db.openingHours.findUniqueOrThrow({ where: { workspaceId: ws.id } })).toMatchObject({
      id: hours.id,
      tenantId: tenant.id,
      enabled: true,
      timezone: 'America/Sao_Paulo',
      outOfHoursMessage: 'Closed',
      createdAt: now,
      days: [{ weekday: 'monday', ranges: [{ start: '08:00', end: '18:00' }] }],
    });
    expect(await db.loginHistory.findUniqueOrThrow({ where: { id: login.id } })).toMatchObject({ event: 'login', at: now });
  });

  it('match schema.prisma for the conversation engine models, every field set', async () => {
    const now = new Date('2026-02-03T04:05:06.789Z');
    const tenant = await db.tenant.findFirstOrThrow({ where: { name: 'T' } });
    await db.tenant.update({ where: { id: tenant.id }, data: { ticketCounter: 7 } });
    expect((await db.tenant.findUniqueOrThrow({ where: { id: tenant.id } })).ticketCounter).toBe(7);
    const ws = await db.workspace.findFirstOrThrow({ where: { tenantId: tenant.id } });
    const user = await db.user.findFirstOrThrow({ where: { tenantId: tenant.id } });
    const sector = await db.sector.findFirstOrThrow({ where: { tenantId: tenant.id } });
    const t = tenant.id;
    await db.userSector.create({ data: { userId: user.id, sectorId: sector.id, tenantId: t } });
    const contact = await db.contact.create({
      data: {
        tenantId: t,
        name: 'C',
        phoneNumber: '+5511999990000',
        phone2: '+5511999990001',
        organization: 'O',
        govId: 'G',
        email: 'c@x.dev',
        customerId: 42,
        zipCode: 'Z',
        address1: 'A1',
        address2: 'A2',
        city: 'Ci',
        state: 'St',
        country: 'Co',
        notes: 'N',
        profileImage: 'http://i',
        fields: { plan: 'gold' },
        livechatCustomFields: { cpf: '1' },
        deletedAt: now,
      },
    });
    const channel = await db.channel.create({
      data: {
        tenantId: t,
        workspaceId: ws.id,
        name: 'API',
        type: 'custom',
        enabled: false,
        templateRequiredOnOutboundStart: true,
        entrySectorId: sector.id,
        config: { webhook_url: 'http://h' },
        inboundTokenHash: 'f'.repeat(64),
        credentialsEncrypted: 'enc',
        providerIdentity: 'messenger:1',
        deletedAt: now,
      },
    });
    const identity = await db.contactIdentity.create({
      data: { tenantId: t, channelId: channel.id, identifier: '+5511999990000', contactId: contact.id },
    });
    const conv = await db.conversation.create({
      data: {
        tenantId: t,
        workspaceId: ws.id,
        contactId: contact.id,
        channelId: channel.id,
        sectorId: sector.id,
        userId: user.id,
        state: 'outbound_started',
        type: 'outbound',
        archived: true,
        priority: 5,
        ticketNumber: 8,
        unreadContactMessages: 2,
        contactInteracted: true,
        lastMessageAt: now,
        timeJoin: now,
        timeAnswer: now,
        closedAt: now,
        endedBy: 'agent',
        endReasonId: sector.id,
        outOfHoursRepliedAt: now,
      },
    });
    const event = await db.conversationEvent.create({
      data: { tenantId: t, conversationId: conv.id, type: 'transfer', detail: { old_user: 'a' }, at: now },
    });
    // The kept count (migration 20261130010000): the insert trigger appended this conversation's key.
    expect(
      await db.conversationTally.findMany({
        where: { tenantId: t },
        select: { workspaceId: true, userId: true, state: true, archived: true, n: true },
      }),
    ).toEqual([{ workspaceId: ws.id, userId: user.id, state: 'outbound_started', archived: true, n: 1 }]);
    const tally = await db.conversationTally.create({
      data: { tenantId: t, workspaceId: ws.id, userId: user.id, state: 'closing', archived: false, n: -3 },
    });
    expect(await db.conversationTally.findUniqueOrThrow({ where: { id: tally.id } })).toMatchObject({
      userId: user.id,
      state: 'closing',
      archived: false,
      n: -3,
    });
    expect(typeof tally.id).toBe('bigint');
    await db.conversationTally.delete({ where: { id: tally.id } });
    const file = await db.storedFile.create({
      data: {
        tenantId: t,
        originalFilename: 'a.pdf',
        contentType: 'application/pdf',
        size: 3,
        service: 's3',
        storageKey: 'k',
        uploadedById: user.id,
        campaignId: '0b7c1e6a-554b-4e9a-992b-1c6f4f2a11ff',
        createdAt: now,
      },
    });
    const msg = await db.message.create({
      data: {
        id: '0b7c1e6a-554b-4e9a-992b-1c6f4f2a1100',
        tenantId: t,
        conversationId: conv.id,
        author: 'USER',
        userId: user.id,
        contactId: contact.id,
        content: 'hi',
        tags: ['internal-message'],
        state: 'read',
        status: 'failed',
        internal: true,
        voice: true,
        replyToId: '0b7c1e6a-554b-4e9a-992b-1c6f4f2a1101',
        annexId: file.id,
        templateMessage: { name: 't' },
        interactiveContent: { type: 'button' },
        externalId: 'wamid.1',
        errorMessage: 'e',
        createdAt: now,
      },
    });
    const category = await db.cannedResponseCategory.create({
      data: { tenantId: t, workspaceId: ws.id, name: 'greet', description: 'd', deletedAt: now },
    });
    const canned = await db.cannedResponse.create({
      data: {
        tenantId: t,
        workspaceId: ws.id,
        keyword: 'hello',
        message: 'Hello {{user}}',
        categoryId: category.id,
        annexId: file.id,
        sectorIds: [sector.id],
        deletedAt: now,
      },
    });
    const reason = await db.conversationReason.create({ data: { tenantId: t, name: 'Solved', deletedAt: now } });
    const fieldDef = await db.conversationFieldDefinition.create({ data: { tenantId: t, name: 'Order', deletedAt: now } });
    await db.conversationFieldValue.create({ data: { conversationId: conv.id, fieldId: fieldDef.id, tenantId: t, value: '123' } });
    const template = await db.outboundTemplate.create({
      data: {
        tenantId: t,
        channelId: channel.id,
        name: 'welcome_1',
        language: 'pt_BR',
        category: 'MARKETING',
        status: 'PENDING',
        components: [{ type: 'BODY', text: 'Hi {{1}}' }],
        externalId: 'tpl-1',
        rejectedReason: 'r',
        syncPending: 'submit',
        syncError: 'e',
        deletedAt: now,
        createdAt: now,
      },
    });
    const live = await db.outboundTemplate.create({
      data: {
        tenantId: t,
        channelId: channel.id,
        name: 'live_1',
        language: 'pt_BR',
        category: 'UTILITY',
        status: 'APPROVED',
        components: [],
      },
    });
    const campaign = await db.campaign.create({
      data: {
        tenantId: t,
        workspaceId: ws.id,
        name: 'Black Friday',
        mode: 'broadcast',
        state: 'completed_with_engagement',
        desiredState: 'running',
        channelId: channel.id,
        templateId: live.id,
        entrySectorId: sector.id,
        entryMenuId: sector.id,
        entryBotId: sector.id,
        actionsOutdated: true,
        config: { default_action: { action: 'end_with_message' } },
        isPublic: false,
        startAt: now,
        startedAt: now,
        scheduledStartErrors: ['Template is not approved'],
        createdById: user.id,
        importStatus: 'done',
        importSummary: { imported: 3 },
        runNumber: 2,
        dispatchOwner: 'w1',
        dispatchLeaseUntil: now,
        finishedAt: now,
        deletedAt: now,
        createdAt: now,
      },
    });
    const dnd = await db.dndList.create({ data: { tenantId: t, name: 'Opt-out', isDefault: true, deletedAt: now, createdAt: now } });
    await db.dndContact.create({ data: { dndListId: dnd.id, contactId: contact.id, tenantId: t, createdAt: now } });
    await db.campaignDndList.create({ data: { campaignId: campaign.id, dndListId: dnd.id } });
    const subscriber = await db.campaignSubscriber.create({
      data: {
        tenantId: t,
        campaignId: campaign.id,
        contactId: contact.id,
        name: 'C',
        phoneNumber: '+5511999990000',
        parameters: ['a', 'b'],
        state: 'completed',
        errorMessage: 'e',
        externalId: 'wamid.2',
        sentAt: now,
        delivery: 'read',
        deliveredAt: now,
        readAt: now,
        repliedAt: now,
        replyAction: 'Sim',
        replyText: 'Sim',
        conversationId: conv.id,
        createdAt: now,
      },
    });
    const outbox = await db.outboxJob.create({ data: { tenantId: t, queue: 'q', payload: { a: 1 }, createdAt: now, dispatchedAt: now } });

    expect(await db.userSector.count({ where: { userId: user.id, sectorId: sector.id } })).toBe(1);
    expect(await db.contact.findUniqueOrThrow({ where: { id: contact.id } })).toMatchObject({
      customerId: 42,
      fields: { plan: 'gold' },
      livechatCustomFields: { cpf: '1' },
      deletedAt: now,
      profileImage: 'http://i',
    });
    expect(await db.channel.findUniqueOrThrow({ where: { id: channel.id } })).toMatchObject({
      templateRequiredOnOutboundStart: true,
      entrySectorId: sector.id,
      credentialsEncrypted: 'enc',
      providerIdentity: 'messenger:1',
      enabled: false,
    });
    expect(await db.outboundTemplate.findUniqueOrThrow({ where: { id: template.id } })).toMatchObject({
      name: 'welcome_1',
      language: 'pt_BR',
      category: 'MARKETING',
      status: 'PENDING',
      components: [{ type: 'BODY', text: 'Hi {{1}}' }],
      externalId: 'tpl-1',
      rejectedReason: 'r',
      syncPending: 'submit',
      syncError: 'e',
      deletedAt: now,
      createdAt: now,
    });
    expect(await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).toMatchObject({
      mode: 'broadcast',
      state: 'completed_with_engagement',
      desiredState: 'running',
      entrySectorId: sector.id,
      entryMenuId: sector.id,
      entryBotId: sector.id,
      actionsOutdated: true,
      isPublic: false,
      scheduledStartErrors: ['Template is not approved'],
      importStatus: 'done',
      importSummary: { imported: 3 },
      runNumber: 2,
      dispatchOwner: 'w1',
      dispatchLeaseUntil: now,
      finishedAt: now,
      startAt: now,
      startedAt: now,
      deletedAt: now,
      config: { default_action: { action: 'end_with_message' } },
    });
    expect((await db.dndList.findUniqueOrThrow({ where: { id: dnd.id } })).isDefault).toBe(true);
    expect(await db.dndContact.count({ where: { dndListId: dnd.id, contactId: contact.id } })).toBe(1);
    expect(await db.campaignDndList.count({ where: { campaignId: campaign.id, dndListId: dnd.id } })).toBe(1);
    expect(await db.campaignSubscriber.findUniqueOrThrow({ where: { id: subscriber.id } })).toMatchObject({
      parameters: ['a', 'b'],
      state: 'completed',
      errorMessage: 'e',
      externalId: 'wamid.2',
      sentAt: now,
      delivery: 'read',
      deliveredAt: now,
      readAt: now,
      repliedAt: now,
      replyAction: 'Sim',
      replyText: 'Sim',
      conversationId: conv.id,
    });
    expect(await db.contactIdentity.findUniqueOrThrow({ where: { id: identity.id } })).toMatchObject({ identifier: '+5511999990000' });
    expect(await db.conversation.findUniqueOrThrow({ where: { id: conv.id } })).toMatchObject({
      state: 'outbound_started',
      priority: 5,
      ticketNumber: 8,
      contactInteracted: true,
      endReasonId: sector.id,
      timeAnswer: now,
      outOfHoursRepliedAt: now,
    });
    expect((await db.$queryRaw<{ state: string }[]>`SELECT state::text FROM "Conversation" WHERE id = ${conv.id}::uuid`)[0]?.state).toBe(
      'outbound-started',
    );
    expect(await db.conversationEvent.findUniqueOrThrow({ where: { id: event.id } })).toMatchObject({
      type: 'transfer',
      detail: { old_user: 'a' },
      at: now,
    });
    expect(await db.message.findUniqueOrThrow({ where: { id: msg.id } })).toMatchObject({
      tags: ['internal-message'],
      state: 'read',
      voice: true,
      interactiveContent: { type: 'button' },
      externalId: 'wamid.1',
    });
    expect(await db.storedFile.findUniqueOrThrow({ where: { id: file.id } })).toMatchObject({
      service: 's3',
      size: 3,
      campaignId: '0b7c1e6a-554b-4e9a-992b-1c6f4f2a11ff',
    });
    expect(await db.cannedResponse.findUniqueOrThrow({ where: { id: canned.id } })).toMatchObject({
      sectorIds: [sector.id],
      categoryId: category.id,
    });
    expect(await db.conversationReason.findUniqueOrThrow({ where: { id: reason.id } })).toMatchObject({ name: 'Solved' });
    expect(
      await db.conversationFieldValue.findUniqueOrThrow({
        where: { conversationId_fieldId: { conversationId: conv.id, fieldId: fieldDef.id } },
      }),
    ).toMatchObject({ value: '123' });
    expect(await db.outboxJob.findUniqueOrThrow({ where: { id: outbox.id } })).toMatchObject({ payload: { a: 1 }, dispatchedAt: now });
  });

  it('match schema.prisma for surveys and their runs, every field set', async () => {
    const now = new Date('2026-02-03T04:05:06.789Z');
    const tenant = await db.tenant.findFirstOrThrow({ where: { name: 'T' } });
    const ws = await db.workspace.findFirstOrThrow({ where: { tenantId: tenant.id } });
    const sector = await db.sector.findFirstOrThrow({ where: { tenantId: tenant.id } });
    const conv = await db.conversation.findFirstOrThrow({ where: { tenantId: tenant.id } });
    const survey = await db.survey.create({
      data: {
        tenantId: tenant.id,
        workspaceId: ws.id,
        name: 'NPS',
        question: 'How was it?',
        options: ['Good', 'Bad'],
        greetingMessage: 'Thanks!',
        sectorIds: [sector.id],
        enabled: false,
        deletedAt: now,
        createdAt: now,
      },
    });
    const run = await db.surveyRun.create({
      data: {
        tenantId: tenant.id,
        surveyId: survey.id,
        conversationId: conv.id,
        contactId: conv.contactId,
        channelId: conv.channelId,
        sectorId: sector.id,
        userId: conv.userId,
        state: 'answered',
        answerIndex: 1,
        answer: 'Bad',
        sentAt: now,
        expiresAt: now,
        answeredAt: now,
      },
    });
    expect(await db.survey.findUniqueOrThrow({ where: { id: survey.id } })).toMatchObject({
      options: ['Good', 'Bad'],
      sectorIds: [sector.id],
      enabled: false,
      deletedAt: now,
      greetingMessage: 'Thanks!',
    });
    expect(await db.surveyRun.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({
      state: 'answered',
      answerIndex: 1,
      answer: 'Bad',
      expiresAt: now,
      answeredAt: now,
      sectorId: sector.id,
    });
  });

  it('match schema.prisma for automated menus and their channel and conversation columns, every field set', async () => {
    const now = new Date('2026-02-03T04:05:06.789Z');
    const tenant = await db.tenant.findFirstOrThrow({ where: { name: 'T' } });
    const ws = await db.workspace.findFirstOrThrow({ where: { tenantId: tenant.id } });
    const menu = await db.automatedMenu.create({
      data: {
        tenantId: tenant.id,
        workspaceId: ws.id,
        name: 'Welcome',
        message: 'Hi',
        invalidOptionMessage: 'Pick one',
        answers: [{ key: '1', label: 'Sales' }],
        enabled: false,
        deletedAt: now,
        createdAt: now,
      },
    });
    const conv = await db.conversation.findFirstOrThrow({ where: { tenantId: tenant.id } });
    await db.channel.update({ where: { id: conv.channelId }, data: { entryMenuId: menu.id } });
    await db.conversation.update({ where: { id: conv.id }, data: { botMenuId: menu.id } });
    expect(await db.automatedMenu.findUniqueOrThrow({ where: { id: menu.id } })).toMatchObject({
      invalidOptionMessage: 'Pick one',
      answers: [{ key: '1', label: 'Sales' }],
      enabled: false,
      deletedAt: now,
    });
    expect((await db.channel.findUniqueOrThrow({ where: { id: conv.channelId } })).entryMenuId).toBe(menu.id);
    expect((await db.conversation.findUniqueOrThrow({ where: { id: conv.id } })).botMenuId).toBe(menu.id);
  });

  it('match schema.prisma for api tokens, every field set', async () => {
    const now = new Date('2026-02-03T04:05:06.789Z');
    const user = await db.user.findFirstOrThrow();
    const token = await db.apiToken.create({
      data: {
        tenantId: user.tenantId,
        workspaceId: user.workspaceId,
        userId: user.id,
        clientName: 'Zapier',
        clientId: 'cli_1',
        tokenHash: 'a'.repeat(64),
        tokenPrefix: 'atd_abcd',
        roles: ['admin', 'agent'],
        lastUsedAt: now,
        revokedAt: now,
        createdAt: now,
        expiresAt: now,
      },
    });
    expect(await db.apiToken.findUniqueOrThrow({ where: { id: token.id } })).toMatchObject({
      clientId: 'cli_1',
      roles: ['admin', 'agent'],
      lastUsedAt: now,
      revokedAt: now,
      expiresAt: now,
      tokenPrefix: 'atd_abcd',
    });
  });

  it('match schema.prisma for e-mail mailbox positions, every field set', async () => {
    const now = new Date('2026-02-03T04:05:06.789Z');
    const channel = await db.channel.findFirstOrThrow();
    const data = {
      channelId: channel.id,
      tenantId: channel.tenantId,
      mailbox: 'suporte@imap.loja.test:993/INBOX',
      uidValidity: 4_000_000_000n,
      lastUid: 42n,
      leaseOwner: 'worker-1:123:abcd',
      leaseUntil: now,
      createdAt: now,
    };
    await db.emailMailboxState.create({ data });
    expect(await db.emailMailboxState.findUniqueOrThrow({ where: { channelId: channel.id } })).toMatchObject(data);
  });

  it('match schema.prisma for automations, every field set', async () => {
    const now = new Date('2026-02-03T04:05:06.789Z');
    const conv = await db.conversation.findFirstOrThrow();
    const t = conv.tenantId;
    const automation = await db.automation.create({
      data: {
        tenantId: t,
        workspaceId: conv.workspaceId,
        name: 'Auto close',
        trigger: 'contact_inactive',
        minutes: 30,
        enabled: false,
        deletedAt: now,
        createdAt: now,
      },
    });
    await db.automationCondition.create({
      data: { tenantId: t, automationId: automation.id, field: 'sector', operator: 'not_equals', value: 'x', createdAt: now },
    });
    await db.automationOperation.create({
      data: { tenantId: t, automationId: automation.id, type: 'send_message', value: 'Bye', position: 2, createdAt: now },
    });
    await db.automationRun.create({ data: { automationId: automation.id, conversationId: conv.id, episode: now, tenantId: t, at: now } });
    const read = await db.automation.findUniqueOrThrow({ where: { id: automation.id }, include: { conditions: true, operations: true } });
    expect(read).toMatchObject({ trigger: 'contact_inactive', minutes: 30, enabled: false, deletedAt: now });
    expect(read.conditions[0]).toMatchObject({ field: 'sector', operator: 'not_equals', value: 'x' });
    expect(read.operations[0]).toMatchObject({ type: 'send_message', value: 'Bye', position: 2 });
    expect(await db.automationRun.count({ where: { automationId: automation.id, conversationId: conv.id, episode: now } })).toBe(1);
  });

  it('match schema.prisma for bots, every field set', async () => {
    const now = new Date('2026-02-03T04:05:06.789Z');
    const ws = await db.workspace.findFirstOrThrow();
    const bot = await db.bot.create({
      data: {
        tenantId: ws.tenantId,
        workspaceId: ws.id,
        name: 'Helper',
        nodes: [{ id: 's', type: 'start' }],
        deletedAt: now,
        createdAt: now,
      },
    });
    expect(await db.bot.findUniqueOrThrow({ where: { id: bot.id } })).toMatchObject({
      name: 'Helper',
      nodes: [{ id: 's', type: 'start' }],
      deletedAt: now,
      createdAt: now,
    });
    const conv = await db.conversation.findFirstOrThrow({ where: { tenantId: ws.tenantId } });
    await db.channel.update({ where: { id: conv.channelId }, data: { entryBotId: bot.id } });
    await db.conversation.update({
      where: { id: conv.id },
      data: { botId: bot.id, botNodeId: 'ask', botVars: { name: 'Ana' }, botCursor: now, botRevision: 3 },
    });
    expect((await db.channel.findUniqueOrThrow({ where: { id: conv.channelId } })).entryBotId).toBe(bot.id);
    expect(await db.conversation.findUniqueOrThrow({ where: { id: conv.id } })).toMatchObject({
      botId: bot.id,
      botNodeId: 'ask',
      botVars: { name: 'Ana' },
      botCursor: now,
      botRevision: 3,
    });
  });

  it('confines a scoped client to its tenant', async () => {
    const other = await db.tenant.create({ data: { name: 'Other' } });
    const mine = await db.tenant.findFirstOrThrow({ where: { name: 'T' } });
    const scopedDb = scoped(db, { tenantId: other.id });
    expect(await scopedDb.workspace.findMany()).toEqual([]);
    expect(await scopedDb.tenant.findMany()).toHaveLength(1);
    const ws = await db.workspace.findFirstOrThrow({ where: { tenantId: mine.id } });
    expect(await scopedDb.workspace.findUnique({ where: { id: ws.id } })).toBeNull();
    await expect(scopedDb.workspace.update({ where: { id: ws.id }, data: { name: 'hijack' } })).rejects.toThrow();
    expect((await db.workspace.findUniqueOrThrow({ where: { id: ws.id } })).name).toBe('W');
  });
});
