/** Where the sender asks for links, and where the links point. */
export const UNSUBSCRIBE_LINKS_PATH = '/unsubscribe-links';
export const UNSUBSCRIBE_PATH = '/unsubscribe';
