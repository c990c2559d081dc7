import { createTheme, Modal, rem } from '@mantine/core';

/** Spec 000 §9 modal widths: sm 464, md 675, lg 800 px (default lg). */
export const MODAL_WIDTHS = { sm: 464, md: 675, lg: 800 } as const;
const isModalWidth = (size: unknown): size is keyof typeof MODAL_WIDTHS => typeof size === 'string' && size in MODAL_WIDTHS;

export const theme = createTheme({
  primaryColor: 'teal',
  defaultRadius: 'md',
  components: {
    Modal: Modal.extend({
      defaultProps: { size: 'lg' },
      vars: (_theme, props) => ({ root: isModalWidth(props.size) ? { '--modal-size': rem(MODAL_WIDTHS[props.size]) } : {} }),
    }),
  },
});
