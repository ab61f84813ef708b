// How long a passkey's name may be: the server refuses longer ones and the profile's rename field stops there.
export const PASSKEY_NAME_MAX_LENGTH = 64;
