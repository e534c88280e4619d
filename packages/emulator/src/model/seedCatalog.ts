/** The vocabulary of the demo data: people, portals, modules and the words records are made of. */
import type { CustomFieldType } from '@portaldesk/portal-api/domain/customFieldTypes';

export const DEMO_PASSWORD = 'portaldesk-demo';
export const DEMO_EMAIL_DOMAIN = 'portaldesk.demo';

export const PEOPLE: readonly [string, string][] = [
  ['Maya', 'Raman'],
  ['Jonas', 'Weber'],
  ['Aisha', 'Khan'],
  ['Lucas', 'Moreau'],
  ['Sofia', 'Lindqvist'],
  ['Kenji', 'Sato'],
  ['Amara', 'Okafor'],
  ['Diego', 'Hernández'],
  ['Priya', 'Nair'],
  ['Tomás', 'Novák'],
  ['Hannah', 'Schmidt'],
  ['Omar', 'Haddad'],
  ['Chloé', 'Dubois'],
  ['Ravi', 'Iyer'],
  ['Zoe', 'Fischer'],
];

export const PORTALS = [
  {
    name: 'northwind',
    org: 'Northwind Traders',
    timezone: 'Asia/Kolkata',
    weekStart: 1,
    workingDays: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'],
    dateFormat: 'dd-MM-yyyy',
  },
  {
    name: 'acme-engineering',
    org: 'Acme Engineering',
    timezone: 'America/New_York',
    weekStart: 0,
    workingDays: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'],
    dateFormat: 'MM-dd-yyyy',
  },
] as const;

export const PROJECT_NAMES = [
  'Warehouse Automation',
  'Customer Portal Revamp',
  'ERP Migration',
  'Mobile App 3.0',
  'Data Center Consolidation',
  'Compliance Audit 2026',
  'Supplier Onboarding',
  'Network Refresh',
];
export const PHASE_NAMES = ['Discovery', 'Build', 'Rollout'];
export const TASKLIST_NAMES = ['Backlog', 'Sprint A', 'Sprint B'];
export const TASK_VERBS = [
  'Review',
  'Draft',
  'Test',
  'Configure',
  'Document',
  'Migrate',
  'Approve',
];
export const TASK_OBJECTS = [
  'access rules',
  'vendor contract',
  'backup policy',
  'data model',
  'release notes',
  'load balancer',
  'user guide',
];
export const ISSUE_TITLES = [
  'Login fails on Safari',
  'Report totals off by one',
  'Slow export',
  'Wrong time zone on invoices',
  'Broken link in footer',
];

export interface SeedField {
  apiName: string;
  label: string;
  type: CustomFieldType;
  section: 'Details' | 'Tracking';
  mandatory?: boolean;
  options?: readonly string[];
}

export interface SeedModule {
  apiName: string;
  singular: string;
  plural: string;
  icon: string;
  /** Share of the seeded records that belong to this module. */
  weight: number;
  statuses: readonly { name: string; color: string; closed: boolean }[];
  fields: readonly SeedField[];
  nouns: readonly string[];
  adjectives: readonly string[];
}

const STATUS_SET = [
  { name: 'Open', color: '#2a64d6', closed: false },
  { name: 'In Review', color: '#b7791f', closed: false },
  { name: 'On Hold', color: '#718096', closed: false },
  { name: 'Approved', color: '#1f8a4c', closed: true },
  { name: 'Rejected', color: '#c53030', closed: true },
] as const;

/** Three custom modules; `assets` alone uses every custom field type. */
export const MODULES: readonly SeedModule[] = [
  {
    apiName: 'assets',
    singular: 'Asset',
    plural: 'Assets',
    icon: 'icon-box',
    weight: 0.45,
    statuses: [
      { name: 'In Stock', color: '#2a64d6', closed: false },
      { name: 'Assigned', color: '#805ad5', closed: false },
      { name: 'In Repair', color: '#b7791f', closed: false },
      { name: 'Retired', color: '#718096', closed: true },
      { name: 'Lost', color: '#c53030', closed: true },
    ],
    nouns: [
      'laptop',
      'monitor',
      'docking station',
      'headset',
      'server',
      'router',
      'tablet',
      'projector',
      'phone',
      'printer',
    ],
    adjectives: [
      'Dell Latitude',
      'Lenovo ThinkPad',
      'HP EliteBook',
      'Apple',
      'Cisco',
      'Logitech',
      'Samsung',
      'Epson',
      'Jabra',
      'Ubiquiti',
    ],
    fields: [
      {
        apiName: 'cf_serial_number',
        label: 'Serial number',
        type: 'single_line',
        section: 'Details',
        mandatory: true,
      },
      { apiName: 'cf_notes', label: 'Notes', type: 'multi_line', section: 'Details' },
      {
        apiName: 'cf_category',
        label: 'Category',
        type: 'pick_list',
        section: 'Details',
        options: ['Hardware', 'Peripheral', 'Network', 'Mobile', 'Furniture'],
      },
      {
        apiName: 'cf_tags',
        label: 'Tags',
        type: 'multi_select',
        section: 'Details',
        options: ['Critical', 'Leased', 'Warranty', 'Remote', 'Shared', 'Encrypted'],
      },
      { apiName: 'cf_custodian', label: 'Custodian', type: 'user_pick_list', section: 'Tracking' },
      { apiName: 'cf_watchers', label: 'Watchers', type: 'multi_user', section: 'Tracking' },
      { apiName: 'cf_purchase_date', label: 'Purchase date', type: 'date', section: 'Details' },
      { apiName: 'cf_pickup_time', label: 'Pickup time', type: 'time', section: 'Tracking' },
      { apiName: 'cf_last_audit', label: 'Last audit', type: 'timestamp', section: 'Tracking' },
      { apiName: 'cf_insured', label: 'Insured', type: 'check_box', section: 'Details' },
      { apiName: 'cf_cost', label: 'Cost', type: 'currency', section: 'Details' },
      { apiName: 'cf_depreciation', label: 'Depreciation', type: 'percentage', section: 'Details' },
      { apiName: 'cf_quantity', label: 'Quantity', type: 'number', section: 'Details' },
      { apiName: 'cf_weight_kg', label: 'Weight (kg)', type: 'decimal', section: 'Details' },
      { apiName: 'cf_supplier_email', label: 'Supplier email', type: 'email', section: 'Tracking' },
      { apiName: 'cf_support_phone', label: 'Support phone', type: 'phone', section: 'Tracking' },
      { apiName: 'cf_manual_url', label: 'Manual', type: 'url', section: 'Tracking' },
    ],
  },
  {
    apiName: 'vendors',
    singular: 'Vendor',
    plural: 'Vendors',
    icon: 'icon-briefcase',
    weight: 0.2,
    statuses: STATUS_SET,
    nouns: ['Supplies', 'Logistics', 'Consulting', 'Systems', 'Networks', 'Facilities', 'Labs'],
    adjectives: [
      'Blue Harbor',
      'Redwood',
      'Summit',
      'Evergreen',
      'Ironclad',
      'Bright Path',
      'Northstar',
    ],
    fields: [
      {
        apiName: 'cf_tier',
        label: 'Tier',
        type: 'pick_list',
        section: 'Details',
        options: ['Strategic', 'Preferred', 'Approved', 'Probation'],
      },
      {
        apiName: 'cf_contact_email',
        label: 'Contact email',
        type: 'email',
        section: 'Details',
        mandatory: true,
      },
      { apiName: 'cf_contact_phone', label: 'Contact phone', type: 'phone', section: 'Details' },
      { apiName: 'cf_website', label: 'Website', type: 'url', section: 'Details' },
      {
        apiName: 'cf_contract_value',
        label: 'Contract value',
        type: 'currency',
        section: 'Tracking',
      },
      { apiName: 'cf_renewal_date', label: 'Renewal date', type: 'date', section: 'Tracking' },
      {
        apiName: 'cf_account_manager',
        label: 'Account manager',
        type: 'user_pick_list',
        section: 'Tracking',
      },
      {
        apiName: 'cf_services',
        label: 'Services',
        type: 'multi_select',
        section: 'Details',
        options: ['Hardware', 'Software', 'Support', 'Training', 'Cloud', 'Security'],
      },
      { apiName: 'cf_rating', label: 'Rating', type: 'decimal', section: 'Tracking' },
      { apiName: 'cf_nda_signed', label: 'NDA signed', type: 'check_box', section: 'Tracking' },
    ],
  },
  {
    apiName: 'change_requests',
    singular: 'Change Request',
    plural: 'Change Requests',
    icon: 'icon-shuffle',
    weight: 0.35,
    statuses: STATUS_SET,
    nouns: [
      'firewall rule',
      'database index',
      'release window',
      'SSO setting',
      'backup schedule',
      'DNS record',
      'VPN profile',
      'retention policy',
    ],
    adjectives: ['Update', 'Add', 'Remove', 'Rotate', 'Extend', 'Tighten', 'Migrate', 'Review'],
    fields: [
      {
        apiName: 'cf_risk',
        label: 'Risk',
        type: 'pick_list',
        section: 'Details',
        options: ['Low', 'Medium', 'High', 'Critical'],
      },
      {
        apiName: 'cf_justification',
        label: 'Justification',
        type: 'multi_line',
        section: 'Details',
        mandatory: true,
      },
      { apiName: 'cf_approvers', label: 'Approvers', type: 'multi_user', section: 'Tracking' },
      { apiName: 'cf_window_start', label: 'Window start', type: 'timestamp', section: 'Tracking' },
      { apiName: 'cf_window_time', label: 'Daily window', type: 'time', section: 'Tracking' },
      { apiName: 'cf_effort_hours', label: 'Effort (hours)', type: 'number', section: 'Details' },
      { apiName: 'cf_completion', label: 'Completion', type: 'percentage', section: 'Tracking' },
      { apiName: 'cf_ticket', label: 'Ticket', type: 'single_line', section: 'Details' },
      { apiName: 'cf_rollback_plan', label: 'Rollback plan', type: 'url', section: 'Details' },
      { apiName: 'cf_emergency', label: 'Emergency', type: 'check_box', section: 'Details' },
    ],
  },
];

export const SENTENCES = [
  'Checked against the latest inventory export.',
  'Waiting for the vendor to confirm the delivery date.',
  'The previous owner left the company; reassign before the audit.',
  'Budget approved by finance in the last steering meeting.',
  'Needs a second look: the serial number on the label is smudged.',
  'Moved to the Pune office together with the rest of the team.',
  'Customer asked for a written summary of the change.',
  'Linked to the quarterly security review.',
  'Rollback tested in staging without issues.',
  'Spare parts ordered; expected within two weeks.',
  'Über-urgent für das Team in München — bitte heute prüfen.',
  'Revisión pendiente por parte del equipo de compras.',
];

export const COMMENT_LINES = [
  'Looks good to me.',
  'Can we move this to next week?',
  'I updated the details after the call.',
  'Please attach the signed form.',
  'Done — closing the loop here.',
  'Flagging this for the audit.',
  'Who owns this now?',
  'Confirmed with the vendor by phone.',
];

export const CURRENCIES = ['USD', 'EUR', 'INR', 'GBP', 'JPY'];
