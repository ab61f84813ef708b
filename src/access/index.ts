// Role and plan gating for flows and host apps.
export { Gate, type GateProps } from './Gate.tsx';
export { useAccess, useHasPrivilege, type AccessAnswer } from './useAccess.ts';
export { allows, grantableRoles, mayManage, needsPlan, ROLES, TENANT_WRITE, USER_WRITE, type AccessFacts, type AccessRule } from './rules.ts';
