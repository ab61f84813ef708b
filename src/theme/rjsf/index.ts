import { withTheme, type ThemeProps } from '@rjsf/core';
import {
  BaseInputTemplate,
  CheckboxWidget,
  DescriptionFieldTemplate,
  ErrorListTemplate,
  FieldErrorTemplate,
  FieldHelpTemplate,
  FieldTemplate,
  ObjectFieldTemplate,
  SelectWidget,
  TitleFieldTemplate,
} from './templates.tsx';

export const foyerTheme: ThemeProps = {
  templates: {
    BaseInputTemplate,
    DescriptionFieldTemplate,
    ErrorListTemplate,
    FieldErrorTemplate,
    FieldHelpTemplate,
    FieldTemplate,
    ObjectFieldTemplate,
    TitleFieldTemplate,
  },
  widgets: { CheckboxWidget, SelectWidget, checkbox: CheckboxWidget, select: SelectWidget },
};

/** The RJSF form with Foyer's theme. */
export const FoyerForm = withTheme(foyerTheme);
