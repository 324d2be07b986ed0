// The domain's value sets, each defined once: the database's check constraints hold the same
// values (db/schema*.ts types its columns with these), the API's zod schemas are built from the
// arrays (`z.enum(STUDY_STATUSES)`), and workflows, activities and lib/ use the types. This module
// imports nothing.

// Organizations and accounts.
export const PLANS = ['free', 'pro'] as const;
export type Plan = (typeof PLANS)[number];
export const USER_ROLES = ['business', 'tester', 'admin'] as const;
export type UserRole = (typeof USER_ROLES)[number];
export const MEMBER_ROLES = ['owner', 'member'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];
export const API_TOKEN_SCOPES = ['read', 'read_write', 'admin'] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];
/** What an organization's webhook endpoints can subscribe to (docs/decisions/webhooks.md). */
export const WEBHOOK_EVENT_TYPES = [
  'study.activated',
  'study.completed',
  'session.completed',
  'session.confirmed',
  'report.ready',
  'study_report.ready',
  'audit.completed',
  'payout.paid',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export const WEBHOOK_ENDPOINT_STATUSES = ['enabled', 'disabled'] as const;
export type WebhookEndpointStatus = (typeof WEBHOOK_ENDPOINT_STATUSES)[number];
/** `owner`: turned off by the organization; `failing`: by the service, after a delivery's whole schedule failed. */
export type WebhookDisabledReason = 'owner' | 'failing';
export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'cancelled'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];
/** `messaging_link`: the code a tester sends to the messaging bot to link their chat (0027). */
export const ONE_TIME_TOKEN_PURPOSES = ['magic_link', 'password_reset', 'messaging_link'] as const;
export type OneTimeTokenPurpose = (typeof ONE_TIME_TOKEN_PURPOSES)[number];

/** How the service reaches a person, for an outreach message or a notification alike. */
export const CHANNELS = ['email', 'messaging'] as const;
export type Channel = (typeof CHANNELS)[number];

// Testers. A user's account status (`users.status`) holds the same values as the tester's profile:
// 0015's triggers carry an account's suspension to the profile.
export const TESTER_STATUSES = ['active', 'suspended', 'pending'] as const;
export type TesterStatus = (typeof TESTER_STATUSES)[number];
export const ASSISTIVE_TECHNOLOGIES = [
  'screen_reader',
  'screen_magnifier',
  'voice_control',
  'switch_access',
  'braille_display',
  'eye_tracking',
  'captions',
  'other',
] as const;
export type AssistiveTechnology = (typeof ASSISTIVE_TECHNOLOGIES)[number];
export const ACCESS_NEEDS = [
  'keyboard_only',
  'low_vision',
  'blind',
  'color_vision_deficiency',
  'deaf_or_hard_of_hearing',
  'motor',
  'cognitive',
  'photosensitivity',
  'other',
] as const;
export type AccessNeed = (typeof ACCESS_NEEDS)[number];
export const PAYOUT_ACCOUNT_STATUSES = ['onboarding', 'verified', 'restricted'] as const;
export type PayoutAccountStatus = (typeof PAYOUT_ACCOUNT_STATUSES)[number];

// Studies.
export const STUDY_STATUSES = ['draft', 'active', 'paused', 'completed', 'archived'] as const;
export type StudyStatus = (typeof STUDY_STATUSES)[number];
export const PROTOTYPE_TYPES = ['design_tool_1', 'design_tool_2', 'design_tool_3', 'url'] as const;
export type PrototypeType = (typeof PROTOTYPE_TYPES)[number];
export const DEVICES = ['desktop', 'mobile', 'tablet'] as const;
export type Device = (typeof DEVICES)[number];
export const TONE_PROFILES = ['standard', 'supportive', 'moderate', 'restorative'] as const;
export type ToneProfile = (typeof TONE_PROFILES)[number];

// Sessions and their signals.
export const SESSION_STATUSES = [
  'active',
  'paused',
  'completed',
  'analyzing',
  'analyzed',
  'confirmed',
  'cancelled',
] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];
/** What the tester reports of a task: they began it, did it, or gave up on it. */
export const TASK_PROGRESS_STATES = ['started', 'completed', 'abandoned'] as const;
export type TaskProgressState = (typeof TASK_PROGRESS_STATES)[number];
/** How an attempt ended: as the tester said, or unfinished when the session ended first. */
export const TASK_OUTCOMES = ['completed', 'abandoned', 'unfinished'] as const;
export type TaskOutcome = (typeof TASK_OUTCOMES)[number];
/** A task attempt as it is recorded: begun, or ended with its outcome and time on task. */
export interface TaskAttemptChange {
  /** The task's `order` in its study. */
  readonly order: number;
  readonly startedAt: string;
  readonly endedAt?: string;
  readonly outcome?: TaskOutcome;
  /** Time on task: from start to end, less the session's pauses in between. */
  readonly activeMs?: number;
  readonly ease?: number;
  readonly reason?: string;
}
/** The Single Ease Question's scale: 1 = very difficult ... 7 = very easy. */
export const EASE_MIN = 1;
export const EASE_MAX = 7;
export const EVENT_TYPES = ['click', 'scroll', 'input', 'focus', 'blur', 'navigation', 'error'] as const;
export type EventType = (typeof EVENT_TYPES)[number];
export const SENTIMENTS = ['positive', 'neutral', 'negative'] as const;
export type Sentiment = (typeof SENTIMENTS)[number];
/** The kinds of signal an analysis may read. */
export const SIGNAL_KINDS = ['events', 'facial', 'voice'] as const;
export type SignalKind = (typeof SIGNAL_KINDS)[number];

// AI agents and their findings.
export const AGENT_KINDS = ['agent1', 'agent2', 'agent3', 'agent4'] as const;
export type AgentKind = (typeof AGENT_KINDS)[number];
export const AGENT_JOB_STATUSES = ['queued', 'complete', 'failed'] as const;
export type AgentJobStatus = (typeof AGENT_JOB_STATUSES)[number];
export const QUEUED_AI_WORK_STATUSES = ['queued', 'processing', 'done', 'failed'] as const;
export type QueuedAiWorkStatus = (typeof QUEUED_AI_WORK_STATUSES)[number];
export const NOTE_AUTHOR_KINDS = ['agent', 'human'] as const;
export type NoteAuthorKind = (typeof NOTE_AUTHOR_KINDS)[number];
export const NOTE_DECISIONS = ['confirmed', 'rejected'] as const;
export type NoteDecision = (typeof NOTE_DECISIONS)[number];
export const FINDING_SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;
export type FindingSeverity = (typeof FINDING_SEVERITIES)[number];
export const WCAG_LEVELS = ['A', 'AA', 'AAA'] as const;
export type WcagLevel = (typeof WCAG_LEVELS)[number];
export const REPORT_FORMATS = ['structured', 'narrative'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** Where a finding's picture came from (0042): the session's recording, a fresh load of the prototype, or nowhere. */
export const SCREENSHOT_SOURCES = ['replay', 'reconstructed', 'none'] as const;
export type ScreenshotSource = (typeof SCREENSHOT_SOURCES)[number];

/** Why a finding has no picture (lib/finding-screenshots.ts words them). */
export const SCREENSHOT_GAPS = [
  'recording_erased',
  'prototype_blocked',
  'prototype_failed',
  'no_browser',
] as const;
export type ScreenshotGap = (typeof SCREENSHOT_GAPS)[number];

/** The tester's decision on one agent finding, as the confirmation carries it. */
export interface NoteDecisionInput {
  readonly noteId: string;
  readonly decision: NoteDecision;
  readonly annotation?: string | undefined;
}

// Recruitment: proposals, outreach, offers, capacity reviews.
export const PROPOSAL_STATUSES = ['pending', 'accepted', 'skipped'] as const;
export type ProposalStatus = (typeof PROPOSAL_STATUSES)[number];
export const OUTREACH_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type OutreachStatus = (typeof OUTREACH_STATUSES)[number];
export const OFFER_STATUSES = ['open', 'accepted', 'declined', 'expired', 'withdrawn'] as const;
export type OfferStatus = (typeof OFFER_STATUSES)[number];
export const CAPACITY_REVIEW_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type CapacityReviewStatus = (typeof CAPACITY_REVIEW_STATUSES)[number];

// Payments.
export const PAYMENT_STATUSES = ['queued', 'processing', 'paid', 'failed'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
export const EVENT_PROVIDERS = ['payments', 'scheduling', 'messaging'] as const;
export type EventProvider = (typeof EVENT_PROVIDERS)[number];
export const BOOKING_STATUSES = ['booked', 'cancelled'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];
export const CHECKOUT_PROVIDERS = ['stripe', 'local'] as const;
export type CheckoutProvider = (typeof CHECKOUT_PROVIDERS)[number];
export const CHECKOUT_STATUSES = ['open', 'complete', 'expired'] as const;
export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number];

// Engagement: points and notifications.
export const POINT_SIGNALS = [
  'session_completed',
  'business_rating',
  'think_aloud',
  'on_time',
  'streak_bonus',
  'adjustment',
] as const;
export type PointSignal = (typeof POINT_SIGNALS)[number];
export const NOTIFICATION_STATUSES = ['pending', 'sending', 'sent', 'failed'] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];

// Accessibility audits.
export const AUDIT_GRADES = ['A', 'B', 'C', 'D', 'F'] as const;
export type AuditGrade = (typeof AUDIT_GRADES)[number];
export const AUDIT_JOB_STATUSES = ['queued', 'running', 'complete', 'failed'] as const;
export type AuditJobStatus = (typeof AUDIT_JOB_STATUSES)[number];
