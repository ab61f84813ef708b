// How many addresses one invitation request may name: the server refuses more, and the invite form
// stops offering inputs at the same number.
export const MAX_INVITATIONS_PER_REQUEST = 20;
