// What `till portal members ...` share.

/** Said when the portal refuses a member session the team's members (a plain member, an individual customer). */
export const PORTAL_MEMBERS_HINT =
  "act as the team's owner or a billing manager: --as-customer EXTERNAL_ID --as-member-external-id MEMBER (or --as-member ID); an individual customer has no team"
