import { createTheme, rem, type MantineTheme, type ModalProps } from '@mantine/core';

/** Modal widths: sm 464, md 675, lg 800 px (default lg). */
export const MODAL_WIDTHS = { sm: 464, md: 675, lg: 800 } as const;
const isModalWidth = (size: unknown): size is keyof typeof MODAL_WIDTHS => typeof size === 'string' && size in MODAL_WIDTHS;

export const theme = createTheme({
  primaryColor: 'teal',
  defaultRadius: 'md',
  components: {
    // What Modal.extend() would return, written out so the theme (on the sign-in page too) does not
    // load the Modal component and what it brings (scroll lock, focus trap, portal).
    Modal: {
      defaultProps: { size: 'lg' },
      vars: (_theme: MantineTheme, props: ModalProps) => ({
        root: isModalWidth(props.size) ? { '--modal-size': rem(MODAL_WIDTHS[props.size]) } : {},
      }),
    },
  },
});
